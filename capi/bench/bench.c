/* bench.c: instance-ticks through the C ABI, driven by
 * capi/examples/capi_bench.rs over a pipe so that its rounds alternate
 * with the Rust batch's in the same run.
 *
 *   bench BUNDLE MODULE STATE N TICKS
 *
 * Spawns N instances of STATE in one batch, warms up one cycle, then for
 * each line `round` read on stdin ticks TICKS times (tick + drain events
 * into a buffer, the per-tick work of a game) and prints the round's
 * nanoseconds per instance-tick. */
#define _POSIX_C_SOURCE 199309L
#include "animkit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        if ((call) != ANIMKIT_STATUS_OK) {                                     \
            fprintf(stderr, "bench: %s: %s\n", #call, animkit_last_error());   \
            return 1;                                                          \
        }                                                                      \
    } while (0)

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: bench BUNDLE MODULE STATE N TICKS\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    static uint8_t bytes[1 << 16];
    size_t len = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    long n = atol(argv[4]), ticks = atol(argv[5]);
    AnimkitBundle *bundle;
    AnimkitSprite *sprite;
    AnimkitSpriteBatch *batch;
    AnimkitState state;
    CHECK(animkit_bundle_open(bytes, len, &bundle));
    CHECK(animkit_bundle_sprite(bundle, argv[2], &sprite));
    CHECK(animkit_sprite_state(sprite, argv[3], &state));
    CHECK(animkit_sprite_batch_new(sprite, &batch));
    for (long i = 0; i < n; i++) {
        CHECK(animkit_batch_spawn(batch, state, 0, NULL));
    }
    static AnimkitInstanceEvent events[4096];
    size_t got;
    for (int t = 0; t < 20; t++) {
        CHECK(animkit_batch_tick(batch));
        do {
            CHECK(animkit_batch_drain_events(batch, events, 4096, &got));
        } while (got == 4096);
    }
    char line[64];
    while (fgets(line, sizeof line, stdin) && strncmp(line, "round", 5) == 0) {
        double t0 = now();
        for (long t = 0; t < ticks; t++) {
            CHECK(animkit_batch_tick(batch));
            do {
                CHECK(animkit_batch_drain_events(batch, events, 4096, &got));
            } while (got == 4096);
        }
        double ns = (now() - t0) * 1e9 / ((double)n * (double)ticks);
        printf("%.6f\n", ns);
        fflush(stdout);
    }
    animkit_batch_free(batch);
    animkit_sprite_free(sprite);
    animkit_bundle_free(bundle);
    return 0;
}
