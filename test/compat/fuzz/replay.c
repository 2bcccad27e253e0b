/* Runs the fuzz harness (fuzz_batch.c) over files and directories of inputs, without
 * libFuzzer, so that any compiler, valgrind and qemu can replay the seed corpus as a test.
 *
 *   fuzz_replay PATH...           each PATH a file, or a directory whose regular files are read
 *   fuzz_replay --random N [SEED] N pseudo-random inputs (0 to 600 bytes, splitmix64 from SEED):
 *                                 a cheap differential run where libFuzzer is not available
 *                                 (e.g. the NEON backend under qemu); the environment variable
 *                                 C2D_FUZZ_RANDOM_INPUTS, when set, replaces N (scripts/test
 *                                 runs fewer under valgrind, where each input costs 50x)
 *
 * Exit status 0 when every input passed (a failing input aborts inside the harness, after
 * printing it; with --random the input's number is printed first). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The regular files of a directory, in name order (so runs are repeatable). */
static int replay_dir(const char *dir, size_t *count) {
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            char **bigger = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
            if (!bigger) {
                status = -1;
                break;
            }
            names = bigger;
        }
        const size_t len = strlen(dir) + strlen(e->d_name) + 2;
        if (!(names[n] = malloc(len))) {
            status = -1;
            break;
        }
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (status == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            status = replay_file(names[i]);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return status;
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static int replay_random(unsigned long n, uint64_t seed) {
    uint8_t buf[600];
    uint64_t state = seed;
    for (unsigned long i = 0; i < n; i++) {
        const size_t len = (size_t)(splitmix(&state) % (sizeof buf + 1));
        for (size_t j = 0; j < len; j++)
            buf[j] = (uint8_t)(splitmix(&state) >> 56);
        fprintf(stderr, "\rrandom input %lu", i);
        LLVMFuzzerTestOneInput(buf, len);
    }
    fprintf(stderr, "\n");
    printf("%lu random inputs passed (seed %llu)\n", n, (unsigned long long)seed);
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--random") == 0) {
        const char *inputs = getenv("C2D_FUZZ_RANDOM_INPUTS");
        return replay_random(strtoul(inputs && *inputs ? inputs : argv[2], NULL, 10),
                             argc > 3 ? (uint64_t)strtoull(argv[3], NULL, 10) : 1);
    }
    size_t count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (S_ISDIR(st.st_mode) ? replay_dir(argv[i], &count) != 0
                                : (count++, replay_file(argv[i]) != 0))
            return 1;
    }
    printf("%zu inputs passed\n", count);
    return 0;
}
