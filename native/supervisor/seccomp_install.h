/* seccomp_install.c: the run's filter, installed in the child before it execs. */
#ifndef JUDGE_SECCOMP_INSTALL_H
#define JUDGE_SECCOMP_INSTALL_H

#include <stddef.h>

int seccomp_install(const unsigned char *bpf, size_t len);

#endif
