/* trace.c: `animvm --trace` written again in C over libanimkit, line for
 * line and byte for byte (capi/tests/trace.rs compares the two).
 *
 *   trace sprite BUNDLE STATE TICKS [SNAPSHOT_AT]
 *       the bundle's only sprite module, one instance spawned in STATE in a
 *       batch, TICKS ticks: {"tick":..,"state":..,"category":..,"frame":..,
 *       "events":[..]} per tick (as `animvm --trace --state STATE --ticks
 *       TICKS`). With SNAPSHOT_AT, after that many ticks the batch is saved
 *       into a buffer, freed, and a new batch restored from the buffer
 *       plays on: the output must not change.
 *   trace slap BUNDLE [FRAMES]
 *       the bundle's first SLAP scene, frames 0 .. its length (or FRAMES
 *       frames): {"frame":..,"actors":[..],"camera":{..}} per frame (as
 *       `animvm --trace [--frames FRAMES]`).
 *   trace numbers X...
 *       each X (a C double literal, hex floats too) as a JSON number, one a
 *       line: the number writer's own check.
 *
 * Exit status 0, or 1 with the library's message on stderr. */
#include "animkit.h"
#include "json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        AnimkitStatus status_ = (call);                                                      \
        if (status_ != ANIMKIT_STATUS_OK) {                                                  \
            fprintf(stderr, "trace: %s: %s (%s)\n", #call, animkit_last_error(),             \
                    animkit_status_name(status_));                                          \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "trace: out of memory\n");
        exit(1);
    }
    *len = n;
    return buf;
}

static AnimkitBundle *open_bundle(const char *path) {
    size_t len;
    uint8_t *bytes = read_file(path, &len);
    AnimkitBundle *bundle = NULL;
    CHECK(animkit_bundle_open(bytes, len, &bundle));
    free(bytes); /* the bundle keeps no pointer into the bytes */
    return bundle;
}

/* The name of the first module of kind `kind`. */
static const char *first_module(const AnimkitBundle *bundle, AnimkitModuleKind kind) {
    size_t count;
    CHECK(animkit_bundle_module_count(bundle, &count));
    for (size_t i = 0; i < count; i++) {
        const char *name;
        AnimkitModuleKind k;
        CHECK(animkit_bundle_module(bundle, i, &name, &k));
        if (k == kind) {
            return name;
        }
    }
    fprintf(stderr, "trace: no module of kind %d\n", (int)kind);
    exit(1);
}

static AnimkitSpriteBatch *save_and_restore(const AnimkitSprite *sprite, AnimkitSpriteBatch *batch) {
    size_t size = 0;
    AnimkitStatus s = animkit_batch_snapshot(batch, NULL, 0, &size);
    if (s != ANIMKIT_STATUS_BUFFER_TOO_SMALL || size == 0) {
        fprintf(stderr, "trace: the size query gave %d and %zu\n", (int)s, size);
        exit(1);
    }
    uint8_t *buf = malloc(size);
    size_t written = 0;
    CHECK(animkit_batch_snapshot(batch, buf, size, &written));
    if (written != size) {
        fprintf(stderr, "trace: the snapshot took %zu bytes, not %zu\n", written, size);
        exit(1);
    }
    animkit_batch_free(batch);
    AnimkitSpriteBatch *restored = NULL;
    CHECK(animkit_sprite_batch_new(sprite, &restored));
    CHECK(animkit_batch_restore(restored, buf, size));
    free(buf);
    return restored;
}

static int trace_sprite(const char *path, const char *state_name, long ticks, long snapshot_at) {
    AnimkitBundle *bundle = open_bundle(path);
    AnimkitSprite *sprite = NULL;
    CHECK(animkit_bundle_sprite(bundle, first_module(bundle, ANIMKIT_MODULE_KIND_SPRITE), &sprite));
    animkit_bundle_free(bundle); /* the sprite module keeps the program */
    AnimkitState state;
    CHECK(animkit_sprite_state(sprite, state_name, &state));
    AnimkitSpriteBatch *batch = NULL;
    CHECK(animkit_sprite_batch_new(sprite, &batch));
    uint32_t index = 99;
    CHECK(animkit_batch_spawn(batch, state, 0, &index));
    if (index != 0) {
        fprintf(stderr, "trace: the first instance is %u\n", index);
        return 1;
    }
    AnimkitInstanceEvent events[4];
    for (long t = 0; t < ticks; t++) {
        if (t == snapshot_at) {
            batch = save_and_restore(sprite, batch);
        }
        CHECK(animkit_batch_tick(batch));
        AnimkitState now;
        uint32_t frame;
        const char *name, *category;
        CHECK(animkit_batch_state(batch, 0, &now));
        CHECK(animkit_batch_frame(batch, 0, &frame));
        CHECK(animkit_sprite_state_name(sprite, now, &name));
        CHECK(animkit_sprite_category(sprite, now, &category));
        printf("{\"tick\":%ld,\"state\":", t);
        json_string(stdout, name);
        fputs(",\"category\":", stdout);
        json_string(stdout, category);
        printf(",\"frame\":%u,\"events\":[", frame);
        /* A small buffer on purpose: events that do not fit stay pending. */
        size_t n, written = 0;
        do {
            CHECK(animkit_batch_drain_events(batch, events, 4, &n));
            for (size_t i = 0; i < n; i++) {
                const char *event;
                CHECK(animkit_sprite_event_name(sprite, events[i].event, &event));
                if (written++ > 0) {
                    fputc(',', stdout);
                }
                json_string(stdout, event);
            }
        } while (n == 4);
        fputs("]}\n", stdout);
    }
    animkit_batch_free(batch);
    animkit_sprite_free(sprite);
    return 0;
}

static int trace_slap(const char *path, long frames) {
    AnimkitBundle *bundle = open_bundle(path);
    AnimkitScene *scene = NULL;
    CHECK(animkit_bundle_scene(bundle, first_module(bundle, ANIMKIT_MODULE_KIND_SCENE), &scene));
    animkit_bundle_free(bundle);
    if (frames < 0) {
        uint64_t length;
        CHECK(animkit_scene_length(scene, &length));
        frames = (long)length + 1;
    }
    size_t cap = 0;
    AnimkitActor *actors = NULL;
    for (long f = 0; f < frames; f++) {
        if (f > 0) {
            CHECK(animkit_scene_step(scene));
        }
        uint64_t frame;
        size_t count, n;
        CHECK(animkit_scene_frame(scene, &frame));
        CHECK(animkit_scene_actor_count(scene, &count));
        if (count > cap) {
            cap = count * 2;
            actors = realloc(actors, cap * sizeof *actors);
        }
        CHECK(animkit_scene_actors(scene, actors, cap, &n));
        printf("{\"frame\":%llu,\"actors\":[", (unsigned long long)frame);
        for (size_t i = 0; i < n; i++) {
            const AnimkitActor *a = &actors[i];
            printf("%s{\"id\":%u,\"action\":%u,\"position\":", i > 0 ? "," : "", a->id, a->action);
            json_vector(stdout, a->position);
            fputs(",\"direction\":", stdout);
            json_number(stdout, a->heading);
            fputs(",\"color\":", stdout);
            json_vector(stdout, a->color);
            fputs(",\"size\":", stdout);
            json_number(stdout, a->size);
            fputc('}', stdout);
        }
        AnimkitCamera cam;
        CHECK(animkit_scene_camera(scene, &cam));
        fputs("],\"camera\":{\"position\":", stdout);
        json_vector(stdout, cam.position);
        fputs(",\"direction\":", stdout);
        json_vector(stdout, cam.direction);
        fputs("}}\n", stdout);
    }
    free(actors);
    animkit_scene_free(scene);
    return 0;
}

int main(int argc, char **argv) {
    if (animkit_version() != ANIMKIT_VERSION || animkit_bundle_format() != ANIMKIT_BUNDLE_FORMAT) {
        fprintf(stderr, "trace: header %d, library %u\n", ANIMKIT_VERSION, animkit_version());
        return 1;
    }
    if (argc >= 5 && strcmp(argv[1], "sprite") == 0) {
        return trace_sprite(argv[2], argv[3], atol(argv[4]), argc >= 6 ? atol(argv[5]) : -1);
    }
    if (argc >= 3 && strcmp(argv[1], "slap") == 0) {
        return trace_slap(argv[2], argc >= 4 ? atol(argv[3]) : -1);
    }
    if (argc >= 2 && strcmp(argv[1], "numbers") == 0) {
        for (int i = 2; i < argc; i++) {
            json_number(stdout, strtod(argv[i], NULL));
            fputc('\n', stdout);
        }
        return 0;
    }
    fprintf(stderr, "usage: trace sprite BUNDLE STATE TICKS [SNAPSHOT_AT] | slap BUNDLE [FRAMES] | numbers X...\n");
    return 2;
}
