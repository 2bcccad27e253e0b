/* A C interface to Google Benchmark (written against libbenchmark 1.7.1), so that every
 * benchmark body is plain C over the public API. The C++ side is bench/gbench_shim.cc.
 *
 * Usage:
 *
 *     static void bm_sum(gb_state *st, const void *arg) {
 *         const float *v = arg;
 *         const size_t n = (size_t)gb_range(st, 0);
 *         float s = 0.0f;
 *         while (gb_keep_running(st)) {
 *             for (size_t i = 0; i < n; i++)
 *                 s += v[i];
 *             gb_do_not_optimize(&s);
 *         }
 *         gb_set_items_processed(st, gb_iterations(st) * (int64_t)n);
 *     }
 *
 *     int main(int argc, char **argv) {
 *         gb_arg(gb_register("sum", bm_sum, data), 1024);   // runs as "sum/1024"
 *         if (gb_initialize(&argc, argv) != 0)
 *             return 1;
 *         gb_run();
 *         gb_shutdown();
 *     }
 */
#ifndef C2D_BENCH_GBENCH_H
#define C2D_BENCH_GBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A running benchmark (benchmark::State). */
typedef struct gb_state gb_state;
/* A registered benchmark (benchmark::internal::Benchmark), to configure after registering. */
typedef struct gb_benchmark gb_benchmark;
/* A benchmark body: `arg` is the pointer given to gb_register(). */
typedef void (*gb_function)(gb_state *state, const void *arg);

/* ---- inside a benchmark body ------------------------------------------------------------ */

/* True while the benchmark wants another iteration; the timer runs between the first call
 * and the call that returns false (State::KeepRunning). */
bool gb_keep_running(gb_state *state);
/* Argument `index` given with gb_arg() (State::range). */
int64_t gb_range(const gb_state *state, size_t index);
/* Iterations run so far (State::iterations). */
int64_t gb_iterations(const gb_state *state);
/* Items processed over the whole run: reported as items_per_second (State::SetItemsProcessed). */
void gb_set_items_processed(gb_state *state, int64_t items);
/* Stops timing (e.g. for a reset between iterations) and starts it again. */
void gb_pause_timing(gb_state *state);
void gb_resume_timing(gb_state *state);
/* Ends the benchmark as failed: its results are replaced by `message` (State::SkipWithError).
 * The next gb_keep_running() returns false. `message` must outlive the run (a literal). */
void gb_skip_with_error(gb_state *state, const char *message);

/* How a user counter is reported (benchmark::Counter::Flags). */
typedef enum gb_counter_flags {
    GB_COUNTER_DEFAULT = 0,                  /* the value as given */
    GB_COUNTER_RATE = 1 << 0,                /* divided by the run's duration */
    GB_COUNTER_ITERATION_INVARIANT = 1 << 2, /* a per-iteration value: times the iterations */
    GB_COUNTER_AVG_ITERATIONS = 1 << 3,      /* divided by the iterations */
    GB_COUNTER_INVERT = 1 << 4               /* inverted last (1/x) */
} gb_counter_flags;

/* Sets user counter `name` (State::counters[name]); `flags` is a sum of gb_counter_flags. */
void gb_set_counter(gb_state *state, const char *name, double value, unsigned flags);

/* Makes the compiler assume the `size` bytes at `p` are read here, so the work that produced
 * them cannot be optimised away; gb_clobber_memory() makes it assume all memory is read and
 * written (benchmark::DoNotOptimize / ClobberMemory). */
#if defined(__GNUC__) || defined(__clang__)
static inline void gb_do_not_optimize(const void *p) {
    __asm__ volatile("" : : "r"(p) : "memory");
}
static inline void gb_clobber_memory(void) {
    __asm__ volatile("" : : : "memory");
}
#else
void gb_do_not_optimize(const void *p);
void gb_clobber_memory(void);
#endif

/* ---- registration ----------------------------------------------------------------------- */

/* Registers `fn`, called with `arg`, as benchmark `name` (copied). Never NULL. */
gb_benchmark *gb_register(const char *name, gb_function fn, const void *arg);
/* Adds a run with argument `value`: the name gets "/value" (Benchmark::Arg). */
gb_benchmark *gb_arg(gb_benchmark *b, int64_t value);
/* Runs it for at least `seconds` (Benchmark::MinTime; overrides --benchmark_min_time). */
gb_benchmark *gb_min_time(gb_benchmark *b, double seconds);
/* Repetitions of this benchmark (Benchmark::Repetitions; overrides the flag). */
gb_benchmark *gb_repetitions(gb_benchmark *b, int n);

/* Time unit of the console report. */
typedef enum gb_time_unit { GB_NANOSECOND, GB_MICROSECOND, GB_MILLISECOND, GB_SECOND } gb_time_unit;
gb_benchmark *gb_unit(gb_benchmark *b, gb_time_unit unit);
/* Times with the wall clock instead of the process' CPU time (Benchmark::UseRealTime). */
gb_benchmark *gb_use_real_time(gb_benchmark *b);

/* An extra aggregate over the repetitions, reported beside mean, median, stddev and cv for
 * the times and for every counter (Benchmark::ComputeStatistics). */
typedef enum gb_statistic { GB_STAT_MIN, GB_STAT_MAX } gb_statistic;
gb_benchmark *gb_add_statistic(gb_benchmark *b, gb_statistic statistic);

/* ---- running ---------------------------------------------------------------------------- */

/* Adds "key": "value" to the report's context (benchmark::AddCustomContext). */
void gb_add_context(const char *key, const char *value);
/* Parses and removes the --benchmark_* flags from argv (benchmark::Initialize). Returns 0, or
 * 1 after printing a message when an argument other than argv[0] is left. Call after every
 * gb_register() and after removing the program's own options. */
int gb_initialize(int *argc, char **argv);
/* Runs the benchmarks the flags select; returns how many ran. */
size_t gb_run(void);
/* Releases what the library holds (benchmark::Shutdown). */
void gb_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
