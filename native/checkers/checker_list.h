/* testlib's standard checkers, listed once: X(name, function in checkers.c). The registry's
 * table and name list (checker_registry.c), judge-check's usage line and judge.checkers
 * (through judge._native) are all made from this list; the lists in the docs are tested
 * against it (tests/test_checkers.py). */
#ifndef JUDGE_CHECKER_LIST_H
#define JUDGE_CHECKER_LIST_H

// clang-format off
#define JUDGE_CHECKERS(X)          \
    X(acmp, chk_rcmp)              \
    X(caseicmp, chk_caseicmp)      \
    X(casencmp, chk_casencmp)      \
    X(casewcmp, chk_casewcmp)      \
    X(dcmp, chk_dcmp)              \
    X(fcmp, chk_fcmp)              \
    X(hcmp, chk_hcmp)              \
    X(icmp, chk_icmp)              \
    X(lcmp, chk_lcmp)              \
    X(ncmp, chk_ncmp)              \
    X(nyesno, chk_nyesno)          \
    X(pointscmp, chk_pointscmp)    \
    X(pointsinfo, chk_pointsinfo)  \
    X(rcmp, chk_rcmp)              \
    X(rcmp4, chk_rcmp4)            \
    X(rcmp6, chk_rcmp6)            \
    X(rcmp9, chk_rcmp9)            \
    X(rncmp, chk_rncmp)            \
    X(uncmp, chk_uncmp)            \
    X(wcmp, chk_wcmp)              \
    X(yesno, chk_yesno)
// clang-format on

/* The checkers' functions, each ending the check of its context by a quit (checker_stream.h). */
struct checker_context;
#pragma GCC visibility push(hidden)
#define JUDGE_CHECKER_PROTOTYPE(name, function) void function(struct checker_context *c);
JUDGE_CHECKERS(JUDGE_CHECKER_PROTOTYPE)
#undef JUDGE_CHECKER_PROTOTYPE
#pragma GCC visibility pop

#endif
