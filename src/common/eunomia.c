/*
 * eunomia.c - progress shares.  See eunomia.h.
 */
#include "eunomia.h"

double eunomia_progress_share(double progress, double monopoly, double weight)
{
	if (!(monopoly > 0) || !(weight > 0))
		return 0;
	return progress / (monopoly * weight);
}

double eunomia_gap(double share, double fair)
{
	return fair > 0 ? (fair - share) / fair : 0;
}
