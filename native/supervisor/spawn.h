/* spawn.c: one run, from fork to the figures of its result. */
#ifndef JUDGE_SPAWN_H
#define JUDGE_SPAWN_H

#include <stddef.h>

struct slot_config;
struct run_request;
struct run_result;

void run_result_init(struct run_result *res);
void run_program(const struct slot_config *cfg, const struct run_request *req,
                 struct run_result *res);
int after_run(const struct slot_config *cfg, const struct run_request *req, char *err,
              size_t errcap);

#endif
