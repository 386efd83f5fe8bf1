/* errors.c: hostile and mistaken calls into libanimkit. Each line is a
 * call and what it gave: `label: status | message` (the message of
 * animkit_last_error when the call failed), or `label: ok ...` with the
 * values it wrote. capi/tests/errors.rs compares the whole output.
 *
 *   errors HERO.animb STORY.animb OTHER.animb
 *
 * Exit status 0 when every call returned (whatever it returned); a crash
 * or a sanitizer report is a failure of the test. */
#include "animkit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void report(const char *label, AnimkitStatus s) {
    if (s == ANIMKIT_STATUS_OK) {
        printf("%s: ok\n", label);
    } else {
        printf("%s: %s | %s\n", label, animkit_status_name(s), animkit_last_error());
    }
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    static uint8_t buf[1 << 20];
    *len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    uint8_t *copy = malloc(*len);
    memcpy(copy, buf, *len);
    return copy;
}

#define MUST(call)                                                             \
    do {                                                                       \
        AnimkitStatus s_ = (call);                                             \
        if (s_ != ANIMKIT_STATUS_OK) {                                         \
            printf("FAILED %s: %s\n", #call, animkit_last_error());            \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

/* Opens every truncation and every single-byte change of `bytes`; prints
 * how many each status got (each must be refused). */
static void mutations(const char *label, const uint8_t *bytes, size_t len) {
    int counts[32] = {0};
    uint8_t *copy = malloc(len);
    for (size_t cut = 0; cut < len; cut++) {
        /* A copy of exactly `cut` bytes: AddressSanitizer sees any read past it. */
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, bytes, cut);
        AnimkitBundle *b = NULL;
        AnimkitStatus s = animkit_bundle_open(part, cut, &b);
        counts[s >= 0 && s < 32 ? s : 31]++;
        animkit_bundle_free(b);
        free(part);
    }
    for (size_t i = 0; i < len; i++) {
        for (int delta = 1; delta < 256; delta += 127) {
            memcpy(copy, bytes, len);
            copy[i] = (uint8_t)(copy[i] + delta);
            AnimkitBundle *b = NULL;
            AnimkitStatus s = animkit_bundle_open(copy, len, &b);
            counts[s >= 0 && s < 32 ? s : 31]++;
            animkit_bundle_free(b);
        }
    }
    free(copy);
    if (counts[ANIMKIT_STATUS_OK] == 0) {
        printf("%s: every truncation and changed byte refused\n", label);
    } else {
        printf("%s: %d of %zu accepted\n", label, counts[ANIMKIT_STATUS_OK], 4 * len);
    }
    /* The spread depends on the bundle's size: the test does not compare it. */
    printf("  by status (%zu truncations, %zu changed bytes):", len, 3 * len);
    for (int s = 0; s < 32; s++) {
        if (counts[s]) {
            printf(" %s %d", animkit_status_name(s), counts[s]);
        }
    }
    printf("\n");
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: errors HERO.animb STORY.animb OTHER.animb\n");
        return 2;
    }
    printf("version %u (%s), bundle format %u, last error before any: \"%s\"\n", animkit_version(),
           animkit_version_string(), animkit_bundle_format(), animkit_last_error());
    printf("status names: %s, %s, %s\n", animkit_status_name(ANIMKIT_STATUS_OK),
           animkit_status_name(ANIMKIT_STATUS_PANIC), animkit_status_name(99));

    size_t len;
    uint8_t *hero = read_file(argv[1], &len);

    /* ---- opening ---- */
    AnimkitBundle *bundle = (AnimkitBundle *)(uintptr_t)0x1;
    report("open NULL bytes, length 10", animkit_bundle_open(NULL, 10, &bundle));
    printf("out-parameter untouched on failure: %s\n", bundle == (AnimkitBundle *)(uintptr_t)0x1 ? "yes" : "no");
    report("open NULL out", animkit_bundle_open(hero, len, NULL));
    report("open NULL bytes, length 0", animkit_bundle_open(NULL, 0, &bundle));
    report("open GIF", animkit_bundle_open((const uint8_t *)"GIF89a", 6, &bundle));
    report("open SIZE_MAX bytes", animkit_bundle_open(hero, SIZE_MAX, &bundle));
    report("open PTRDIFF_MAX + 1 bytes", animkit_bundle_open(hero, (size_t)PTRDIFF_MAX + 1, &bundle));
    report("open half", animkit_bundle_open(hero, len / 2, &bundle));
    report("open one byte short", animkit_bundle_open(hero, len - 1, &bundle));
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, hero, len);
    longer[len] = 0;
    report("open one byte more", animkit_bundle_open(longer, len + 1, &bundle));
    free(longer);
    uint8_t *copy = malloc(len);
    memcpy(copy, hero, len);
    copy[8] = 9;
    report("open format 9", animkit_bundle_open(copy, len, &bundle));
    copy[8] = 1;
    report("open format 1", animkit_bundle_open(copy, len, &bundle));
    memcpy(copy, hero, len);
    copy[len - 3] ^= 0x40;
    report("open a changed payload byte", animkit_bundle_open(copy, len, &bundle));
    free(copy);
    mutations("hero.animb", hero, len);
    size_t story_len;
    uint8_t *story = read_file(argv[2], &story_len);
    mutations("story.animb", story, story_len);

    MUST(animkit_bundle_open(hero, len, &bundle));
    free(hero); /* the bundle copied what it needs */
    size_t count;
    MUST(animkit_bundle_module_count(bundle, &count));
    const char *name;
    AnimkitModuleKind kind;
    MUST(animkit_bundle_module(bundle, 0, &name, &kind));
    printf("modules: %zu, the first `%s` of kind %d\n", count, name, (int)kind);
    report("module 1", animkit_bundle_module(bundle, 1, &name, &kind));
    report("module count NULL out", animkit_bundle_module_count(bundle, NULL));

    /* ---- modules ---- */
    AnimkitSprite *sprite = NULL;
    report("sprite `hera`", animkit_bundle_sprite(bundle, "hera", &sprite));
    report("sprite NULL name", animkit_bundle_sprite(bundle, NULL, &sprite));
    report("sprite name not UTF-8", animkit_bundle_sprite(bundle, "he\xffro", &sprite));
    AnimkitScene *not_a_scene = NULL;
    report("scene `hero`", animkit_bundle_scene(bundle, "hero", &not_a_scene));
    MUST(animkit_bundle_sprite(bundle, "hero", &sprite));
    AnimkitState walk, jump;
    report("state `walk`", animkit_sprite_state(sprite, "walk", &walk));
    report("state `Jmp`", animkit_sprite_state(sprite, "Jmp", &walk));
    MUST(animkit_sprite_state(sprite, "Walk", &walk));
    MUST(animkit_sprite_state(sprite, "Jump", &jump));
    size_t states;
    MUST(animkit_sprite_state_count(sprite, &states));
    const char *category;
    MUST(animkit_sprite_category(sprite, 5, &category));
    printf("states: %zu, Walk %u, Jump %u, the category of state 5 `%s`\n", states, walk, jump, category);
    report("state name 10", animkit_sprite_state_name(sprite, 10, &name));
    AnimkitEvent step;
    report("event `jump`", animkit_sprite_event(sprite, "jump", &step));
    MUST(animkit_sprite_event(sprite, "step", &step));
    const char *event_name, *again;
    MUST(animkit_sprite_event_name(sprite, step, &event_name));
    MUST(animkit_sprite_event_name(sprite, step, &again));
    printf("event `step` is %u, named `%s`, the same pointer twice: %s\n", step, event_name,
           event_name == again ? "yes" : "no");
    MUST(animkit_sprite_event_name(sprite, 4000000000u, &event_name));
    printf("event 4000000000 is named \"%s\"\n", event_name);

    /* ---- batches ---- */
    AnimkitSpriteBatch *batch = NULL;
    MUST(animkit_sprite_batch_new(sprite, &batch));
    report("spawn state 10", animkit_batch_spawn(batch, 10, 0, NULL));
    uint32_t index;
    MUST(animkit_batch_spawn(batch, walk, 0, &index));
    MUST(animkit_batch_spawn(batch, walk, 6, NULL));
    report("frame of instance 2", animkit_batch_frame(batch, 2, &index));
    report("set state of instance 7", animkit_batch_set_state(batch, 7, walk, 0));
    report("remove instance 2", animkit_batch_remove(batch, 2));
    bool waiting = true;
    report("is waiting of instance 2", animkit_batch_is_waiting(batch, 2, &waiting));
    report("is waiting NULL out", animkit_batch_is_waiting(batch, 0, NULL));
    MUST(animkit_batch_is_waiting(batch, 0, &waiting));
    printf("instance 0 waiting: %s\n", waiting ? "yes" : "no");
    report("set state 99", animkit_batch_set_state(batch, 0, 99, 0));
    report("set state `Wlak`", animkit_batch_set_state_by_name(batch, 0, "Wlak", 0));
    report("set state NULL name", animkit_batch_set_state_by_name(batch, 0, NULL, 0));
    report("speed 1/0", animkit_batch_set_speed(batch, 0, 1, 0));
    MUST(animkit_batch_set_speed(batch, 1, 3, 2));
    uint32_t speed;
    MUST(animkit_batch_speed(batch, 1, &speed));
    MUST(animkit_batch_advance(batch, 1000003));
    uint32_t f0, f1;
    uint64_t t0;
    MUST(animkit_batch_frame(batch, 0, &f0));
    MUST(animkit_batch_frame(batch, 1, &f1));
    MUST(animkit_batch_time_in_state(batch, 0, &t0));
    size_t pending;
    MUST(animkit_batch_pending_events(batch, &pending));
    uint64_t dropped;
    MUST(animkit_batch_dropped_events(batch, &dropped));
    printf("after 1000003 ticks: frames %u %u, time in state %llu, speed of 1 %u, %zu events pending, %llu dropped\n",
           f0, f1, (unsigned long long)t0, speed, pending, (unsigned long long)dropped);
    size_t n = 77;
    report("drain into NULL, capacity 5", animkit_batch_drain_events(batch, NULL, 5, &n));
    report("drain SIZE_MAX events", animkit_batch_drain_events(batch, (AnimkitInstanceEvent *)&n, SIZE_MAX, &n));
    MUST(animkit_batch_drain_events(batch, NULL, 0, &n));
    printf("drained into NULL, capacity 0: %zu\n", n);
    AnimkitInstanceEvent events[3];
    MUST(animkit_batch_drain_events(batch, events, 3, &n));
    printf("drained %zu: (%u, %u) (%u, %u) (%u, %u)\n", n, events[0].instance, events[0].event, events[1].instance,
           events[1].event, events[2].instance, events[2].event);
    AnimkitInstanceEvent many[1000];
    size_t total = 0;
    do {
        MUST(animkit_batch_drain_events(batch, many, 1000, &n));
        total += n;
    } while (n > 0);
    MUST(animkit_batch_pending_events(batch, &pending));
    printf("drained the other %zu, %zu pending\n", total, pending);
    MUST(animkit_batch_set_state_by_name(batch, 0, "Jump", 0));
    MUST(animkit_batch_tick(batch));
    AnimkitState now;
    MUST(animkit_batch_state(batch, 0, &now));
    MUST(animkit_batch_time_in_state(batch, 0, &t0));
    printf("set to Jump by name: state %u, time in state %llu\n", now, (unsigned long long)t0);
    const uint32_t *frames;
    MUST(animkit_batch_frames(batch, &frames, &n));
    printf("frames column: %zu values, %u %u\n", n, frames[0], frames[1]);

    /* ---- snapshots ---- */
    size_t size = 0;
    uint8_t small[3];
    report("snapshot into 3 bytes", animkit_batch_snapshot(batch, small, 3, &size));
    uint8_t *snap = malloc(size + 1);
    size_t written;
    MUST(animkit_batch_snapshot(batch, snap, size, &written));
    printf("snapshot: %zu bytes, size query said %zu, starts %.8s\n", written, size, (const char *)snap);
    report("snapshot NULL buffer, capacity 8", animkit_batch_snapshot(batch, NULL, 8, &size));
    report("restore NULL, length 4", animkit_batch_restore(batch, NULL, 4));
    report("restore garbage", animkit_batch_restore(batch, (const uint8_t *)"not a snapshot", 14));
    report("restore the magic only", animkit_batch_restore(batch, snap, 8));
    report("restore cut short", animkit_batch_restore(batch, snap, written - 1));
    snap[written] = 0;
    report("restore a byte more", animkit_batch_restore(batch, snap, written + 1));
    int changed_ok = 0, changed_refused = 0;
    for (size_t i = 8; i < written; i++) {
        uint8_t *c = malloc(written);
        memcpy(c, snap, written);
        c[i] ^= 0xff;
        AnimkitSpriteBatch *scratch = NULL;
        MUST(animkit_sprite_batch_new(sprite, &scratch));
        if (animkit_batch_restore(scratch, c, written) == ANIMKIT_STATUS_OK) {
            changed_ok++;
        } else {
            changed_refused++;
        }
        animkit_batch_free(scratch);
        free(c);
    }
    printf("snapshot bytes flipped: %d refused, %d restored (a valid state of the same module)\n",
           changed_refused, changed_ok);
    MUST(animkit_batch_frame(batch, 0, &f0));
    printf("after the failed restores, the batch is unchanged: frame %u, state %u\n", f0, now);

    size_t other_len;
    uint8_t *other_bytes = read_file(argv[3], &other_len);
    AnimkitBundle *other = NULL;
    MUST(animkit_bundle_open(other_bytes, other_len, &other));
    free(other_bytes);
    MUST(animkit_bundle_module(other, 0, &name, &kind));
    AnimkitSprite *other_sprite = NULL;
    MUST(animkit_bundle_sprite(other, name, &other_sprite));
    AnimkitSpriteBatch *other_batch = NULL;
    MUST(animkit_sprite_batch_new(other_sprite, &other_batch));
    report("restore into another module", animkit_batch_restore(other_batch, snap, written));
    AnimkitReloadReport reload_report = {7, 7, 7, 7};
    report("reload onto another module", animkit_batch_reload(batch, other_sprite, 0, &reload_report));
    report("reload with fallback 999", animkit_batch_reload(batch, sprite, 999, &reload_report));
    printf("after the refused reloads: report untouched %d\n", reload_report.fell_back == 7 && reload_report.vanished == 7);
    AnimkitSpriteBatch *restored = NULL;
    MUST(animkit_sprite_batch_new(sprite, &restored));
    MUST(animkit_batch_restore(restored, snap, written));
    MUST(animkit_batch_len(restored, &n));
    MUST(animkit_batch_time_in_state(restored, 0, &t0));
    printf("restored: %zu instances, time in state %llu\n", n, (unsigned long long)t0);
    free(snap);

    /* ---- scenes ---- */
    AnimkitBundle *story_bundle = NULL;
    MUST(animkit_bundle_open(story, story_len, &story_bundle));
    free(story);
    MUST(animkit_bundle_module(story_bundle, 0, &name, &kind));
    AnimkitScene *scene = NULL;
    AnimkitSprite *none = NULL;
    report("sprite of a scene", animkit_bundle_sprite(story_bundle, name, &none));
    MUST(animkit_bundle_scene(story_bundle, name, &scene));
    uint64_t length, frame;
    MUST(animkit_scene_length(scene, &length));
    MUST(animkit_scene_advance(scene, 600));
    MUST(animkit_scene_frame(scene, &frame));
    bool finished;
    MUST(animkit_scene_is_finished(scene, &finished));
    MUST(animkit_scene_actor_count(scene, &n));
    printf("scene `%s`: length %llu, at frame %llu, finished %d, %zu actors\n", name, (unsigned long long)length,
           (unsigned long long)frame, (int)finished, n);
    AnimkitActor actor;
    MUST(animkit_scene_actor(scene, 7, &actor));
    printf("actor 7: action %u, size %g, pose body height %g\n", actor.action, actor.size,
           (double)actor.pose.body_height);
    report("actor 999", animkit_scene_actor(scene, 999, &actor));
    report("actors into NULL, capacity 3", animkit_scene_actors(scene, NULL, 3, &n));
    AnimkitActor two[2];
    MUST(animkit_scene_actors(scene, two, 2, &n));
    printf("two actors of more: %zu written, ids %u %u\n", n, two[0].id, two[1].id);
    MUST(animkit_scene_seek(scene, length + 10));
    MUST(animkit_scene_is_finished(scene, &finished));
    uint64_t errors;
    MUST(animkit_scene_error_count(scene, &errors));
    printf("seek past the end: finished %d, %llu runtime errors\n", (int)finished, (unsigned long long)errors);

    /* ---- handles of the wrong kind ---- */
    report("tick a scene as a batch", animkit_batch_tick((AnimkitSpriteBatch *)scene));
    report("step a bundle as a scene", animkit_scene_step((AnimkitScene *)bundle));
    report("sprite from a batch as a bundle",
           animkit_bundle_sprite((const AnimkitBundle *)batch, "hero", &other_sprite));
    report("batch of a scene as a sprite", animkit_sprite_batch_new((const AnimkitSprite *)scene, &other_batch));
    uint64_t not_a_handle[4] = {0, 0, 0, 0};
    report("tick zeroed memory", animkit_batch_tick((AnimkitSpriteBatch *)not_a_handle));
    report("tick a misaligned pointer", animkit_batch_tick((AnimkitSpriteBatch *)((char *)not_a_handle + 1)));
    report("tick NULL", animkit_batch_tick(NULL));
    report("scene frame NULL out", animkit_scene_frame(scene, NULL));
    /* Freeing the wrong kind, or NULL, does nothing. */
    animkit_batch_free((AnimkitSpriteBatch *)scene);
    animkit_scene_free((AnimkitScene *)bundle);
    animkit_bundle_free(NULL);
    animkit_sprite_free(NULL);
    animkit_batch_free(NULL);
    animkit_scene_free(NULL);
    report("the scene after a wrong free", animkit_scene_step(scene));
    printf("the last error, kept after that success: %s\n", animkit_last_error());

    animkit_scene_free(scene);
    animkit_bundle_free(story_bundle);
    animkit_batch_free(restored);
    animkit_batch_free(other_batch);
    animkit_sprite_free(other_sprite);
    animkit_bundle_free(other);
    animkit_batch_free(batch);
    animkit_sprite_free(sprite);
    animkit_bundle_free(bundle);
    printf("done\n");
    return 0;
}
