// Added to the reference (sol.cpp) by the test: 1 MiB more after the last answer, written as the
// program exits, when the interactor has ended or is ending. Bytes nobody reads, which change
// nothing (AC).
#include <cstdio>

static struct WritesAfterTheEnd {
    ~WritesAfterTheEnd() {
        for (int i = 0; i < 1024; i++)
            printf("%01023d\n", i);
    }
} writes_after_the_end;
