// The C++ side of bench/gbench.h: thin extern "C" wrappers over Google Benchmark 1.7.1.
// gb_state and gb_benchmark are never defined; pointers to them are the C++ objects.
#include "gbench.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

namespace {

benchmark::State &st(gb_state *s) {
    return *reinterpret_cast<benchmark::State *>(s);
}
const benchmark::State &st(const gb_state *s) {
    return *reinterpret_cast<const benchmark::State *>(s);
}
benchmark::internal::Benchmark *bm(gb_benchmark *b) {
    return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}
gb_benchmark *handle(benchmark::internal::Benchmark *b) {
    return reinterpret_cast<gb_benchmark *>(b);
}

double statistic_min(const std::vector<double> &v) {
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}
double statistic_max(const std::vector<double> &v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

} // namespace

extern "C" {

bool gb_keep_running(gb_state *s) {
    return st(s).KeepRunning();
}

int64_t gb_range(const gb_state *s, size_t index) {
    return st(s).range(index);
}

int64_t gb_iterations(const gb_state *s) {
    return static_cast<int64_t>(st(s).iterations());
}

void gb_set_items_processed(gb_state *s, int64_t items) {
    st(s).SetItemsProcessed(items);
}

void gb_pause_timing(gb_state *s) {
    st(s).PauseTiming();
}

void gb_resume_timing(gb_state *s) {
    st(s).ResumeTiming();
}

void gb_skip_with_error(gb_state *s, const char *message) {
    st(s).SkipWithError(message);
}

void gb_set_counter(gb_state *s, const char *name, double value, unsigned flags) {
    int f = benchmark::Counter::kDefaults;
    if (flags & GB_COUNTER_RATE) f |= benchmark::Counter::kIsRate;
    if (flags & GB_COUNTER_ITERATION_INVARIANT) f |= benchmark::Counter::kIsIterationInvariant;
    if (flags & GB_COUNTER_AVG_ITERATIONS) f |= benchmark::Counter::kAvgIterations;
    if (flags & GB_COUNTER_INVERT) f |= benchmark::Counter::kInvert;
    st(s).counters[name] = benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(f));
}

#if !defined(__GNUC__) && !defined(__clang__)
void gb_do_not_optimize(const void *p) {
    benchmark::DoNotOptimize(p);
}
void gb_clobber_memory(void) {
    benchmark::ClobberMemory();
}
#endif

gb_benchmark *gb_register(const char *name, gb_function fn, const void *arg) {
    return handle(benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &state) {
        fn(reinterpret_cast<gb_state *>(&state), arg);
    }));
}

gb_benchmark *gb_arg(gb_benchmark *b, int64_t value) {
    return handle(bm(b)->Arg(value));
}

gb_benchmark *gb_min_time(gb_benchmark *b, double seconds) {
    return handle(bm(b)->MinTime(seconds));
}

gb_benchmark *gb_repetitions(gb_benchmark *b, int n) {
    return handle(bm(b)->Repetitions(n));
}

gb_benchmark *gb_unit(gb_benchmark *b, gb_time_unit unit) {
    benchmark::TimeUnit u = benchmark::kNanosecond;
    switch (unit) {
    case GB_NANOSECOND:
        u = benchmark::kNanosecond;
        break;
    case GB_MICROSECOND:
        u = benchmark::kMicrosecond;
        break;
    case GB_MILLISECOND:
        u = benchmark::kMillisecond;
        break;
    case GB_SECOND:
        u = benchmark::kSecond;
        break;
    }
    return handle(bm(b)->Unit(u));
}

gb_benchmark *gb_add_statistic(gb_benchmark *b, gb_statistic statistic) {
    if (statistic == GB_STAT_MIN) return handle(bm(b)->ComputeStatistics("min", statistic_min));
    return handle(bm(b)->ComputeStatistics("max", statistic_max));
}

gb_benchmark *gb_use_real_time(gb_benchmark *b) {
    return handle(bm(b)->UseRealTime());
}

void gb_add_context(const char *key, const char *value) {
    benchmark::AddCustomContext(key, value);
}

int gb_initialize(int *argc, char **argv) {
    benchmark::Initialize(argc, argv);
    return benchmark::ReportUnrecognizedArguments(*argc, argv) ? 1 : 0;
}

size_t gb_run(void) {
    return benchmark::RunSpecifiedBenchmarks();
}

void gb_shutdown(void) {
    benchmark::Shutdown();
}

} // extern "C"
