/*
 * eunomia.h - Eunomia's progress shares.  Progress is allocated CPUs x
 * speed x time; an account's progress share is its accumulated progress
 * over (its weight x the progress the whole cluster would have delivered
 * to it alone, without placement constraints, over the same time):
 * s_i = x_i / (f_i w_i).  Equalising progress shares makes an account that
 * pins its jobs to fast nodes pay for the speed it gets.
 */
#ifndef HORAE_EUNOMIA_H
#define HORAE_EUNOMIA_H

/*
 * Progress share of progress against monopoly (what the cluster would
 * have given the account alone) and weight; 0 when monopoly or weight is
 * not positive.
 */
double eunomia_progress_share(double progress, double monopoly,
			      double weight);

/*
 * How far share is below fair, relative to fair: > 0 below (placement
 * gives faster nodes), < 0 above (slower nodes), 0 at it or with no fair
 * share to compare with.
 */
double eunomia_gap(double share, double fair);

#endif /* HORAE_EUNOMIA_H */
