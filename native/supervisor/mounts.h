/* mounts.c: the slot's root and its /tmp. */
#ifndef JUDGE_MOUNTS_H
#define JUDGE_MOUNTS_H

struct slot_config;

void setup_root(const struct slot_config *cfg);
int reset_tmp(const struct slot_config *cfg);

#endif
