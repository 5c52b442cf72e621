/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * speed.h - node speed factors from node features, for Eunomia's progress
 * shares: a map such as "gen1:1.0,gen2:1.5,gen4:3.0", a default factor for
 * nodes whose features match none, and the factor of a node from its
 * feature list (Slurm's "gen2,ib" form): the largest factor among its
 * features, or the default.
 */
#ifndef HORAE_SPEED_H
#define HORAE_SPEED_H

#include "err.h"

#define SPEED_MAX_FEATURES 64
#define SPEED_NAME_MAX 64

typedef struct speed_map speed_map_t;

/*
 * Parse a map "feature:factor,..." ("" for an empty map) with default
 * factor deflt.  Factors are finite numbers > 0; a feature appears once.
 * Returns the map, or NULL with errno EINVAL (err names the item and
 * what is wrong) or ENOMEM.  Destroy with speed_map_destroy().
 */
speed_map_t *speed_map_create(const char *map, double deflt,
			      horae_err_t *err);

/* Free the map and set *m to NULL.  NULL-safe. */
void speed_map_destroy(speed_map_t **m);

/* Factor of a node with the comma-separated features (NULL: none). */
double speed_of(const speed_map_t *m, const char *features);

/*
 * Factor of a node with features for an account whose own map over
 * refines m (NULL: none): a feature over names takes over's factor, the
 * others m's; the largest wins, else m's default.
 */
double speed_of_account(const speed_map_t *over, const speed_map_t *m,
			const char *features);

/* Factor of one feature, or 0 when the map does not name it. */
double speed_of_feature(const speed_map_t *m, const char *feature);

/* Number of features in the map. */
int speed_map_count(const speed_map_t *m);

#endif /* HORAE_SPEED_H */
