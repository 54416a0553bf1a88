/* qa.h: what the QA sweep's programs share: the corpus's CUDA error check
 * naming the call and seeded input generator (tests/programs/prog.h: the
 * CPU reference sees the GPU's data), the mismatch counters and the verdict
 * line run.sh looks for. */
#ifndef QA_H
#define QA_H
#include "../programs/prog.h" /* CHECK, lcg */
#include <cmath>

static inline unsigned qa_lcg(unsigned *s) { return lcg(s); }

/* counts mismatches and prints the first few with their index */
static int qa_bad = 0;
#define EXPECT_EQ(what, i, got, want)                                        \
  do {                                                                       \
    auto g_ = (got); /* each operand once: it may be a call */               \
    auto w_ = (want);                                                        \
    if (!(g_ == w_)) {                                                       \
      if (qa_bad < 5)                                                        \
        printf("  %s[%d]: got %.17g want %.17g\n", what, (int)(i),           \
               (double)g_, (double)w_);                                      \
      qa_bad++;                                                              \
    }                                                                        \
  } while (0)
#define EXPECT_NEAR(what, i, got, want, tol)                                 \
  do {                                                                       \
    double g_ = (double)(got), w_ = (double)(want);                          \
    if (!(fabs(g_ - w_) <= (tol) * (1.0 + fabs(w_)))) {                      \
      if (qa_bad < 5)                                                        \
        printf("  %s[%d]: got %.17g want %.17g\n", what, (int)(i), g_, w_);  \
      qa_bad++;                                                              \
    }                                                                        \
  } while (0)

/* the verdict: "QA name PASS" (run.sh requires it) and the exit status */
static inline int qa_done(const char *name)
{
  printf("QA %s %s (%d mismatches)\n", name, qa_bad ? "FAIL" : "PASS", qa_bad);
  return qa_bad ? 1 : 0;
}
#endif
