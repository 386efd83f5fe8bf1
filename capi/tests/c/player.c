/* player.c: a "game" in C with its own headless GL context (EGL's device
 * platform, no window and no display server, as the Rust tests make one)
 * and its own framebuffer object, into which libanimkit's Player draws a
 * SLAP scene and an Animator HUD from a bundle built by animc
 * (capi/tests/player.rs compares the pixels with `animvm -H`'s frames).
 *
 *   player BUNDLE OUT.ppm
 *       The game's framebuffer object is W x H (64 x 48), cleared to
 *       (10, 20, 200). The bundle's scene `story` is drawn at 32 x 24 into
 *       the viewport (8, 6) at frame 60 (seek 30, then 60 updates of
 *       1/60 s), then its first Animator module (the HUD) at 20 x 10 into
 *       the viewport (40, 30). The framebuffer is written to OUT.ppm (P6,
 *       top row first). On standard output: the GL version, the frame
 *       reached, whether the game's bindings and viewport read back the
 *       same after each call, and the status and message of every refused
 *       call (unknown module, sprite module, NULL loader, bad sizes, no
 *       current context, a name that is not a framebuffer...).
 *
 * Exit status 0; 1 with the library's message on stderr; 2 when no EGL
 * device gives a GL 3.3 core or GLES 3.0 context. */
#include "animkit.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 48

/* The few GL names and functions the game uses, loaded through EGL (no GL
 * headers needed). */
typedef unsigned int GLenum;
typedef unsigned int GLuint;
typedef int GLint;
typedef int GLsizei;
typedef float GLfloat;
typedef unsigned int GLbitfield;
#define GL_FRAMEBUFFER 0x8D40
#define GL_RENDERBUFFER 0x8D41
#define GL_RGBA8 0x8058
#define GL_COLOR_ATTACHMENT0 0x8CE0
#define GL_FRAMEBUFFER_COMPLETE 0x8CD5
#define GL_COLOR_BUFFER_BIT 0x4000
#define GL_RGBA 0x1908
#define GL_UNSIGNED_BYTE 0x1401
#define GL_VERSION 0x1F02
#define GL_VIEWPORT 0x0BA2
#define GL_DRAW_FRAMEBUFFER_BINDING 0x8CA6
#define GL_READ_FRAMEBUFFER_BINDING 0x8CAA
#define GL_NO_ERROR 0

static void (*glGenRenderbuffers)(GLsizei, GLuint *);
static void (*glBindRenderbuffer)(GLenum, GLuint);
static void (*glRenderbufferStorage)(GLenum, GLenum, GLsizei, GLsizei);
static void (*glGenFramebuffers)(GLsizei, GLuint *);
static void (*glBindFramebuffer)(GLenum, GLuint);
static void (*glFramebufferRenderbuffer)(GLenum, GLenum, GLenum, GLuint);
static GLenum (*glCheckFramebufferStatus)(GLenum);
static void (*glViewport)(GLint, GLint, GLsizei, GLsizei);
static void (*glClearColor)(GLfloat, GLfloat, GLfloat, GLfloat);
static void (*glClear)(GLbitfield);
static void (*glReadPixels)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
static GLenum (*glGetError)(void);
static void (*glGetIntegerv)(GLenum, GLint *);
static const unsigned char *(*glGetString)(GLenum);

#define LOAD(f)                                                         \
    do {                                                                \
        f = (__typeof__(f))eglGetProcAddress(#f);                       \
        if (!f) {                                                       \
            fprintf(stderr, "player: eglGetProcAddress(%s) is NULL\n", #f); \
            exit(2);                                                    \
        }                                                               \
    } while (0)

#define CHECK(call)                                                                  \
    do {                                                                             \
        AnimkitStatus status_ = (call);                                              \
        if (status_ != ANIMKIT_STATUS_OK) {                                          \
            fprintf(stderr, "player: %s: %s (%s)\n", #call, animkit_last_error(),    \
                    animkit_status_name(status_));                                  \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

/* The game's loader for libanimkit: EGL's, `user` unused. */
static void *gl_loader(const char *name, void *user) {
    (void)user;
    return (void *)eglGetProcAddress(name);
}

/* A loader that has nothing: every function NULL. */
static void *empty_loader(const char *name, void *user) {
    (void)name;
    (void)user;
    return NULL;
}

/* A surfaceless context on the first EGL device that gives one: desktop GL
 * 3.3 core, else GLES 3.0. */
static EGLDisplay display;
static EGLContext context;

static int make_context(void) {
    PFNEGLQUERYDEVICESEXTPROC query_devices = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!query_devices || !platform_display) {
        fprintf(stderr, "player: EGL has no device platform (EGL_EXT_device_enumeration)\n");
        return 0;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count) || count == 0) {
        fprintf(stderr, "player: EGL reports no devices\n");
        return 0;
    }
    for (EGLint d = 0; d < count; d++) {
        EGLDisplay dpy = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[d], NULL);
        if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) continue;
        for (int api = 0; api < 2; api++) {
            const EGLint config_attrs[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE,
                                           api == 0 ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT, EGL_ALPHA_SIZE, 8,
                                           EGL_NONE};
            const EGLint core[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
            const EGLint es3[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
            EGLConfig config;
            EGLint n = 0;
            if (!eglBindAPI(api == 0 ? EGL_OPENGL_API : EGL_OPENGL_ES_API)) continue;
            if (!eglChooseConfig(dpy, config_attrs, &config, 1, &n) || n == 0) continue;
            EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, api == 0 ? core : es3);
            if (ctx == EGL_NO_CONTEXT) continue;
            if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
                eglDestroyContext(dpy, ctx);
                continue;
            }
            display = dpy;
            context = ctx;
            return 1;
        }
        eglTerminate(dpy);
    }
    fprintf(stderr, "player: no EGL device gives a surfaceless GL 3.3 core or GLES 3.0 context\n");
    return 0;
}

static uint8_t *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    size_t cap = 1 << 16, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) exit(1);
    *len = n;
    return buf;
}

/* The bindings and viewport the game left, to compare after each call. */
struct Bindings {
    GLint draw, read, viewport[4];
};

static struct Bindings bindings(void) {
    struct Bindings b;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &b.draw);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &b.read);
    glGetIntegerv(GL_VIEWPORT, b.viewport);
    return b;
}

static void same(const char *after, struct Bindings before) {
    struct Bindings now = bindings();
    int kept = memcmp(&now, &before, sizeof now) == 0;
    printf("after %s: game state %s, GL error 0x%x\n", after, kept ? "kept" : "CHANGED", glGetError());
}

/* Prints a call's status and message, for the refusals. */
static void refused(const char *what, AnimkitStatus status) {
    printf("%s: %s | %s\n", what, animkit_status_name(status), status ? animkit_last_error() : "");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: player BUNDLE OUT.ppm\n");
        return 1;
    }
    if (!make_context()) return 2;
    LOAD(glGenRenderbuffers);
    LOAD(glBindRenderbuffer);
    LOAD(glRenderbufferStorage);
    LOAD(glGenFramebuffers);
    LOAD(glBindFramebuffer);
    LOAD(glFramebufferRenderbuffer);
    LOAD(glCheckFramebufferStatus);
    LOAD(glViewport);
    LOAD(glClearColor);
    LOAD(glClear);
    LOAD(glReadPixels);
    LOAD(glGetError);
    LOAD(glGetIntegerv);
    LOAD(glGetString);
    fprintf(stderr, "player: GL %s\n", (const char *)glGetString(GL_VERSION));

    /* The game's framebuffer object. */
    GLuint rb, fbo;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "player: the game's framebuffer is not complete\n");
        return 1;
    }
    glViewport(0, 0, W, H);
    glClearColor(10 / 255.0f, 20 / 255.0f, 200 / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    /* The game goes on drawing into the default framebuffer's binding
     * (nothing there, surfaceless) with its own viewport: the player draws
     * into `fbo` all the same and leaves both as they were. */
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(1, 2, 30, 20);
    struct Bindings game = bindings();

    size_t len;
    uint8_t *bytes = read_file(argv[1], &len);
    AnimkitBundle *bundle;
    CHECK(animkit_bundle_open(bytes, len, &bundle));
    free(bytes);

    /* The cutscene: frame 30, then one second of the game's clock at 60
     * updates a second is 30 frames more. */
    AnimkitPlayer *cutscene;
    CHECK(animkit_player_new(bundle, "story", 32, 24, gl_loader, NULL, &cutscene));
    same("new", game);
    AnimkitModuleKind kind;
    CHECK(animkit_player_kind(cutscene, &kind));
    CHECK(animkit_player_set_viewport(cutscene, 8, 6, 32, 24));
    CHECK(animkit_player_seek(cutscene, 30));
    for (int i = 0; i < 60; i++) CHECK(animkit_player_update(cutscene, 1.0 / 60.0));
    uint64_t frame;
    CHECK(animkit_player_frame(cutscene, &frame));
    printf("story: kind %d, frame %llu\n", (int)kind, (unsigned long long)frame);
    CHECK(animkit_player_draw(cutscene, fbo));
    same("the cutscene's draw", game);

    /* The HUD: no module named, the first Animator one. */
    AnimkitPlayer *hud;
    CHECK(animkit_player_new(bundle, NULL, 20, 10, gl_loader, NULL, &hud));
    CHECK(animkit_player_kind(hud, &kind));
    CHECK(animkit_player_set_viewport(hud, 40, 30, 20, 10));
    CHECK(animkit_player_update(hud, 0.5));
    CHECK(animkit_player_draw(hud, fbo));
    same("the HUD's draw", game);
    bool finished;
    CHECK(animkit_player_is_finished(hud, &finished));
    printf("hud: kind %d, finished %d\n", (int)kind, (int)finished);
    /* A click on the HUD's area: the program asked for events. */
    CHECK(animkit_player_pointer_button(hud, 10, 5, 1, true));
    CHECK(animkit_player_pointer_button(hud, 10, 5, 1, false));
    CHECK(animkit_player_key(hud, 0, 'a', "a", true));
    char out[4096];
    CHECK(animkit_player_drain_output(hud, (uint8_t *)out, sizeof out - 1, &len));
    out[len] = 0;
    printf("hud output:\n%s", out);

    /* The refusals. */
    AnimkitPlayer *none = NULL;
    refused("unknown module", animkit_player_new(bundle, "huds", 8, 8, gl_loader, NULL, &none));
    refused("sprite module", animkit_player_new(bundle, "hero", 8, 8, gl_loader, NULL, &none));
    refused("zero width", animkit_player_new(bundle, "story", 0, 8, gl_loader, NULL, &none));
    refused("NULL loader", animkit_player_new(bundle, "story", 8, 8, NULL, NULL, &none));
    refused("empty loader", animkit_player_new(bundle, "story", 8, 8, empty_loader, NULL, &none));
    refused("NULL bundle", animkit_player_new(NULL, "story", 8, 8, gl_loader, NULL, &none));
    refused("NULL out", animkit_player_new(bundle, "story", 8, 8, gl_loader, NULL, NULL));
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    refused("no current context", animkit_player_new(bundle, "story", 8, 8, gl_loader, NULL, &none));
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
    refused("seek the HUD", animkit_player_seek(hud, 3));
    refused("seek too far", animkit_player_seek(cutscene, UINT64_MAX));
    refused("draw into 4242", animkit_player_draw(cutscene, 4242));
    refused("negative dt", animkit_player_update(cutscene, -1.0));
    refused("speed 65", animkit_player_set_speed(cutscene, 65.0));
    refused("viewport 0", animkit_player_set_viewport(cutscene, 0, 0, 0, 24));
    refused("button 0", animkit_player_pointer_button(hud, 1, 1, 0, true));
    refused("key with a space", animkit_player_key(hud, 0, 0, "a b", true));
    refused("a bundle as a player", animkit_player_update((AnimkitPlayer *)bundle, 0.1));
    refused("frame NULL", animkit_player_frame(cutscene, NULL));
    printf("the refusals drew nothing: frame ");
    CHECK(animkit_player_frame(cutscene, &frame));
    printf("%llu\n", (unsigned long long)frame);
    same("the refusals", game);

    /* The game's framebuffer, top row first. */
    static uint8_t pixels[W * H * 4];
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    FILE *f = fopen(argv[2], "wb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    fprintf(f, "P6\n%d %d\n255\n", W, H);
    for (int row = H - 1; row >= 0; row--) {
        for (int col = 0; col < W; col++) fwrite(&pixels[(row * W + col) * 4], 1, 3, f);
    }
    fclose(f);

    animkit_player_free(hud);
    animkit_player_free(cutscene);
    animkit_player_free(NULL);
    animkit_bundle_free(bundle);
    printf("GL error at the end: 0x%x\n", glGetError());
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(display, context);
    eglTerminate(display);
    return 0;
}
