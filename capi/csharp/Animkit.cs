// Animkit.cs: a C# (P/Invoke) binding of libanimkit, the C ABI of animkit
// (docs/capi.md). One file: drop it into a Unity project's Assets/ with the
// native library beside it (Assets/Plugins/: libanimkit.so on Linux,
// animkit.dll on Windows, libanimkit.dylib on macOS). Plain C# 7, no unsafe
// code; tested with Mono (capi/tests/csharp.rs).
//
//     var bundle = Animkit.Bundle.Open(File.ReadAllBytes("hero.animb"));
//     var hero = bundle.Sprite("hero");
//     uint walk = hero.State("Walk"), step = hero.Event("step");
//     var crowd = hero.NewBatch();
//     crowd.Spawn(walk);
//     crowd.Tick();                                   // every FixedUpdate
//     uint frame = crowd.Frame(0);
//     foreach (var e in crowd.DrainEvents()) if (e.Event == step) PlayStep(e.Instance);
//
// Every failing call throws AnimkitException with the library's Status and
// message (animkit_last_error). Handles are SafeHandles: the garbage
// collector frees what the game forgets, Dispose() frees at once, and a
// second Dispose() does nothing. A method of a disposed object throws
// ObjectDisposedException: the library never sees a freed handle.

using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Win32.SafeHandles;

namespace Animkit
{
    /// <summary>AnimkitStatus: what a call into the library returned (0 is Ok).</summary>
    public enum Status
    {
        Ok = 0,
        NullPointer = 1,
        InvalidArgument = 2,
        WrongHandle = 3,
        NotABundle = 4,
        NewerFormat = 5,
        OlderFormat = 6,
        Corrupt = 7,
        Rule = 8,
        NoModule = 9,
        WrongKind = 10,
        UnknownState = 11,
        UnknownEvent = 12,
        OutOfRange = 13,
        BufferTooSmall = 14,
        SnapshotWrongModule = 15,
        SnapshotInvalid = 16,
        Panic = 17,
        Gl = 18,
    }

    /// <summary>AnimkitModuleKind: what a bundle's module is.</summary>
    public enum ModuleKind
    {
        Sprite = 0,
        Drawing = 1,
        Scene = 2,
    }

    /// <summary>A call into libanimkit failed: its status and the library's message
    /// ("function: reason").</summary>
    public sealed class AnimkitException : Exception
    {
        public readonly Status Status;

        public AnimkitException(Status status, string message) : base(message)
        {
            Status = status;
        }
    }

    /// <summary>AnimkitInstanceEvent: animation Instance fired Event.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct InstanceEvent
    {
        public uint Instance;
        public uint Event;
    }

    /// <summary>AnimkitReloadReport: what SpriteBatch.Reload did (counts, size_t).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ReloadReport
    {
        /// <summary>Animations whose state the new build lacks: restarted in the fallback.</summary>
        public UIntPtr FellBack;
        /// <summary>Animations whose frame position or ticks into the frame were clamped.</summary>
        public UIntPtr Clamped;
        /// <summary>Pending events dropped: the new build fires no event of their name.</summary>
        public UIntPtr DroppedEvents;
        /// <summary>States of the old build the new one lacks.</summary>
        public UIntPtr Vanished;
    }

    /// <summary>AnimkitPose: a SLAP actor's joints.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Pose
    {
        public float BodyHeight, BodyPitch, BodyRoll, HeadPitch, HeadYaw;
        public float LegSwingLeft, LegSwingRight, LegLiftLeft, LegLiftRight, WingLift, LegTuck;
    }

    /// <summary>AnimkitActor: a SLAP actor at the scene's current frame.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Actor
    {
        public uint Id;
        public uint Action;
        public double X, Y, Z;
        public double Heading;
        public double R, G, B;
        public double Size;
        public Pose Pose;
    }

    /// <summary>AnimkitCamera: the SLAP camera at the scene's current frame.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Camera
    {
        public double X, Y, Z;
        public double DirectionX, DirectionY, DirectionZ;
    }

    /// <summary>An AnimkitBundle*, freed with animkit_bundle_free.</summary>
    public sealed class BundleHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public BundleHandle() : base(true) { }
        protected override bool ReleaseHandle() { Native.animkit_bundle_free(handle); return true; }
    }

    /// <summary>An AnimkitSprite*, freed with animkit_sprite_free.</summary>
    public sealed class SpriteHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public SpriteHandle() : base(true) { }
        protected override bool ReleaseHandle() { Native.animkit_sprite_free(handle); return true; }
    }

    /// <summary>An AnimkitSpriteBatch*, freed with animkit_batch_free.</summary>
    public sealed class BatchHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public BatchHandle() : base(true) { }
        protected override bool ReleaseHandle() { Native.animkit_batch_free(handle); return true; }
    }

    /// <summary>An AnimkitScene*, freed with animkit_scene_free.</summary>
    public sealed class SceneHandle : SafeHandleZeroOrMinusOneIsInvalid
    {
        public SceneHandle() : base(true) { }
        protected override bool ReleaseHandle() { Native.animkit_scene_free(handle); return true; }
    }

    /// <summary>The extern functions of animkit.h, as they are. Names go in as
    /// NUL-terminated UTF-8 byte arrays (Utf8z), strings come out as IntPtr
    /// (Library.Text).</summary>
    public static class Native
    {
        /// <summary>"animkit": Unity and Mono look for libanimkit.so, animkit.dll, libanimkit.dylib
        /// (on iOS the static libanimkit.a is linked into the player: "__Internal").</summary>
#if UNITY_IOS && !UNITY_EDITOR
        public const string Lib = "__Internal";
#else
        public const string Lib = "animkit";
#endif

        [DllImport(Lib)] public static extern uint animkit_version();
        [DllImport(Lib)] public static extern IntPtr animkit_version_string();
        [DllImport(Lib)] public static extern ushort animkit_bundle_format();
        [DllImport(Lib)] public static extern IntPtr animkit_last_error();
        [DllImport(Lib)] public static extern IntPtr animkit_status_name(int status);

        [DllImport(Lib)] public static extern Status animkit_bundle_open(byte[] bytes, UIntPtr len, out BundleHandle bundle);
        [DllImport(Lib)] public static extern void animkit_bundle_free(IntPtr bundle);
        [DllImport(Lib)] public static extern Status animkit_bundle_module_count(BundleHandle bundle, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_bundle_module(BundleHandle bundle, UIntPtr index, out IntPtr name, out ModuleKind kind);
        [DllImport(Lib)] public static extern Status animkit_bundle_sprite(BundleHandle bundle, byte[] name, out SpriteHandle sprite);
        [DllImport(Lib)] public static extern Status animkit_bundle_scene(BundleHandle bundle, byte[] name, out SceneHandle scene);

        [DllImport(Lib)] public static extern void animkit_sprite_free(IntPtr sprite);
        [DllImport(Lib)] public static extern Status animkit_sprite_state(SpriteHandle sprite, byte[] name, out uint state);
        [DllImport(Lib)] public static extern Status animkit_sprite_state_count(SpriteHandle sprite, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_sprite_state_name(SpriteHandle sprite, uint state, out IntPtr name);
        [DllImport(Lib)] public static extern Status animkit_sprite_category(SpriteHandle sprite, uint state, out IntPtr name);
        [DllImport(Lib)] public static extern Status animkit_sprite_event(SpriteHandle sprite, byte[] name, out uint ev);
        [DllImport(Lib)] public static extern Status animkit_sprite_event_name(SpriteHandle sprite, uint ev, out IntPtr name);
        [DllImport(Lib)] public static extern Status animkit_sprite_batch_new(SpriteHandle sprite, out BatchHandle batch);

        [DllImport(Lib)] public static extern void animkit_batch_free(IntPtr batch);
        [DllImport(Lib)] public static extern Status animkit_batch_spawn(BatchHandle batch, uint state, uint phase, out uint index);
        [DllImport(Lib)] public static extern Status animkit_batch_len(BatchHandle batch, out UIntPtr len);
        [DllImport(Lib)] public static extern Status animkit_batch_tick(BatchHandle batch);
        [DllImport(Lib)] public static extern Status animkit_batch_advance(BatchHandle batch, uint ticks);
        [DllImport(Lib)] public static extern Status animkit_batch_set_state(BatchHandle batch, uint index, uint state, uint phase);
        [DllImport(Lib)] public static extern Status animkit_batch_set_state_by_name(BatchHandle batch, uint index, byte[] name, uint phase);
        [DllImport(Lib)] public static extern Status animkit_batch_restart(BatchHandle batch, uint index, uint state, uint phase);
        [DllImport(Lib)] public static extern Status animkit_batch_set_speed(BatchHandle batch, uint index, uint num, uint den);
        [DllImport(Lib)] public static extern Status animkit_batch_speed(BatchHandle batch, uint index, out uint speed);
        [DllImport(Lib)] public static extern Status animkit_batch_state(BatchHandle batch, uint index, out uint state);
        [DllImport(Lib)] public static extern Status animkit_batch_frame(BatchHandle batch, uint index, out uint frame);
        [DllImport(Lib)] public static extern Status animkit_batch_frames(BatchHandle batch, out IntPtr frames, out UIntPtr len);
        [DllImport(Lib)] public static extern Status animkit_batch_time_in_state(BatchHandle batch, uint index, out ulong ticks);
        [DllImport(Lib)] public static extern Status animkit_batch_is_waiting(BatchHandle batch, uint index, [MarshalAs(UnmanagedType.U1)] out bool waiting);
        [DllImport(Lib)] public static extern Status animkit_batch_remove(BatchHandle batch, uint index);
        [DllImport(Lib)] public static extern Status animkit_batch_pending_events(BatchHandle batch, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_batch_dropped_events(BatchHandle batch, out ulong count);
        [DllImport(Lib)] public static extern Status animkit_batch_drain_events(BatchHandle batch, [Out] InstanceEvent[] events, UIntPtr capacity, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_batch_snapshot(BatchHandle batch, [Out] byte[] buffer, UIntPtr capacity, out UIntPtr len);
        [DllImport(Lib)] public static extern Status animkit_batch_restore(BatchHandle batch, byte[] buffer, UIntPtr len);
        [DllImport(Lib)] public static extern Status animkit_batch_reload(BatchHandle batch, SpriteHandle sprite, uint fallbackState, out ReloadReport report);

        [DllImport(Lib)] public static extern void animkit_scene_free(IntPtr scene);
        [DllImport(Lib)] public static extern Status animkit_scene_step(SceneHandle scene);
        [DllImport(Lib)] public static extern Status animkit_scene_advance(SceneHandle scene, ulong frames);
        [DllImport(Lib)] public static extern Status animkit_scene_seek(SceneHandle scene, ulong frame);
        [DllImport(Lib)] public static extern Status animkit_scene_frame(SceneHandle scene, out ulong frame);
        [DllImport(Lib)] public static extern Status animkit_scene_length(SceneHandle scene, out ulong length);
        [DllImport(Lib)] public static extern Status animkit_scene_is_finished(SceneHandle scene, [MarshalAs(UnmanagedType.U1)] out bool finished);
        [DllImport(Lib)] public static extern Status animkit_scene_error_count(SceneHandle scene, out ulong count);
        [DllImport(Lib)] public static extern Status animkit_scene_actor_count(SceneHandle scene, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_scene_actors(SceneHandle scene, [Out] Actor[] actors, UIntPtr capacity, out UIntPtr count);
        [DllImport(Lib)] public static extern Status animkit_scene_actor(SceneHandle scene, uint id, out Actor actor);
        [DllImport(Lib)] public static extern Status animkit_scene_camera(SceneHandle scene, out Camera camera);
    }

    /// <summary>The library's version, its status names, and the helpers the classes share.</summary>
    public static class Library
    {
        /// <summary>The ANIMKIT_VERSION this file was written against: major * 10000 + minor * 100 + patch.</summary>
        public const uint HeaderVersion = 100;

        /// <summary>animkit_version(): the loaded library's version (check it equals HeaderVersion).</summary>
        public static uint Version { get { return Native.animkit_version(); } }

        /// <summary>animkit_version_string(), "0.1.0".</summary>
        public static string VersionString { get { return Text(Native.animkit_version_string()); } }

        /// <summary>animkit_bundle_format(): the .animb format version the library reads.</summary>
        public static ushort BundleFormat { get { return Native.animkit_bundle_format(); } }

        /// <summary>animkit_status_name(): "ANIMKIT_STATUS_OK"...</summary>
        public static string StatusName(Status status) { return Text(Native.animkit_status_name((int)status)); }

        /// <summary>Throws AnimkitException with animkit_last_error() unless status is Ok.</summary>
        public static void Check(Status status)
        {
            if (status != Status.Ok) throw new AnimkitException(status, Text(Native.animkit_last_error()));
        }

        /// <summary>A NUL-terminated UTF-8 string the library owns, copied (null for NULL).</summary>
        public static string Text(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var bytes = new byte[n];
            Marshal.Copy(p, bytes, 0, n);
            return Encoding.UTF8.GetString(bytes);
        }

        /// <summary>s as NUL-terminated UTF-8 (null stays null: the library gets NULL).</summary>
        public static byte[] Utf8z(string s)
        {
            if (s == null) return null;
            var bytes = new byte[Encoding.UTF8.GetByteCount(s) + 1];
            Encoding.UTF8.GetBytes(s, 0, s.Length, bytes, 0);
            return bytes;
        }
    }

    /// <summary>A verified bundle (.animb bytes). Its modules, batches and scenes
    /// stay valid after it is disposed.</summary>
    public sealed class Bundle : IDisposable
    {
        public readonly BundleHandle Handle;

        private Bundle(BundleHandle handle) { Handle = handle; }

        /// <summary>Verifies and opens bundle bytes (read during the call only).
        /// Throws with NotABundle, NewerFormat, OlderFormat, Corrupt, Rule; NullPointer for null.</summary>
        public static Bundle Open(byte[] bytes)
        {
            BundleHandle h;
            Library.Check(Native.animkit_bundle_open(bytes, (UIntPtr)(bytes == null ? 0 : bytes.Length), out h));
            return new Bundle(h);
        }

        public int ModuleCount
        {
            get
            {
                UIntPtr n;
                Library.Check(Native.animkit_bundle_module_count(Handle, out n));
                return (int)n;
            }
        }

        /// <summary>The name and kind of module index (from 0).</summary>
        public KeyValuePair<string, ModuleKind> Module(int index)
        {
            IntPtr name;
            ModuleKind kind;
            Library.Check(Native.animkit_bundle_module(Handle, (UIntPtr)index, out name, out kind));
            return new KeyValuePair<string, ModuleKind>(Library.Text(name), kind);
        }

        /// <summary>The sprite module name. Throws with NoModule (nearest names in the message), WrongKind.</summary>
        public Sprite Sprite(string name)
        {
            SpriteHandle h;
            Library.Check(Native.animkit_bundle_sprite(Handle, Library.Utf8z(name), out h));
            return new Sprite(h);
        }

        /// <summary>The SLAP scene name, at frame 0. Throws with NoModule, WrongKind.</summary>
        public Scene Scene(string name)
        {
            SceneHandle h;
            Library.Check(Native.animkit_bundle_scene(Handle, Library.Utf8z(name), out h));
            return new Scene(h);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A sprite module: state and event names to numbers (look them up once,
    /// at load time), and new batches.</summary>
    public sealed class Sprite : IDisposable
    {
        public readonly SpriteHandle Handle;

        internal Sprite(SpriteHandle handle) { Handle = handle; }

        /// <summary>The state name (case-sensitive). Throws with UnknownState (nearest names).</summary>
        public uint State(string name)
        {
            uint s;
            Library.Check(Native.animkit_sprite_state(Handle, Library.Utf8z(name), out s));
            return s;
        }

        public int StateCount
        {
            get
            {
                UIntPtr n;
                Library.Check(Native.animkit_sprite_state_count(Handle, out n));
                return (int)n;
            }
        }

        public string StateName(uint state)
        {
            IntPtr p;
            Library.Check(Native.animkit_sprite_state_name(Handle, state, out p));
            return Library.Text(p);
        }

        /// <summary>The state's sprite category: which sheet its frames index.</summary>
        public string Category(uint state)
        {
            IntPtr p;
            Library.Check(Native.animkit_sprite_category(Handle, state, out p));
            return Library.Text(p);
        }

        /// <summary>The event name. Throws with UnknownEvent.</summary>
        public uint Event(string name)
        {
            uint e;
            Library.Check(Native.animkit_sprite_event(Handle, Library.Utf8z(name), out e));
            return e;
        }

        /// <summary>The event's name ("" for a number the module never fires).</summary>
        public string EventName(uint ev)
        {
            IntPtr p;
            Library.Check(Native.animkit_sprite_event_name(Handle, ev, out p));
            return Library.Text(p);
        }

        /// <summary>A new, empty batch; it stays valid after this module is disposed.</summary>
        public SpriteBatch NewBatch()
        {
            BatchHandle h;
            Library.Check(Native.animkit_sprite_batch_new(Handle, out h));
            return new SpriteBatch(h);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Many animations of one sprite module, indexed from 0, ticked together.</summary>
    public sealed class SpriteBatch : IDisposable
    {
        public readonly BatchHandle Handle;
        private readonly InstanceEvent[] events = new InstanceEvent[64];

        internal SpriteBatch(BatchHandle handle) { Handle = handle; }

        /// <summary>Adds an animation in state, phase animation ticks in; its index.</summary>
        public uint Spawn(uint state, uint phase = 0)
        {
            uint i;
            Library.Check(Native.animkit_batch_spawn(Handle, state, phase, out i));
            return i;
        }

        public int Count
        {
            get
            {
                UIntPtr n;
                Library.Check(Native.animkit_batch_len(Handle, out n));
                return (int)n;
            }
        }

        /// <summary>One fixed tick of every animation.</summary>
        public void Tick() { Library.Check(Native.animkit_batch_tick(Handle)); }

        /// <summary>ticks ticks at once, exactly as that many Tick() calls.</summary>
        public void Advance(uint ticks) { Library.Check(Native.animkit_batch_advance(Handle, ticks)); }

        /// <summary>Switches animation index to state at the next tick (nothing when already in it).</summary>
        public void SetState(uint index, uint state, uint phase = 0)
        {
            Library.Check(Native.animkit_batch_set_state(Handle, index, state, phase));
        }

        /// <summary>SetState by the state's name (a string lookup: prefer the number in a game loop).</summary>
        public void SetState(uint index, string state, uint phase = 0)
        {
            Library.Check(Native.animkit_batch_set_state_by_name(Handle, index, Library.Utf8z(state), phase));
        }

        /// <summary>Starts animation index over in state at the next tick, even when already in it.</summary>
        public void Restart(uint index, uint state, uint phase = 0)
        {
            Library.Check(Native.animkit_batch_restart(Handle, index, state, phase));
        }

        /// <summary>Speed num / den (0 pauses) from the next tick on.</summary>
        public void SetSpeed(uint index, uint num, uint den = 1)
        {
            Library.Check(Native.animkit_batch_set_speed(Handle, index, num, den));
        }

        /// <summary>Speed in 16.16 fixed point (65536 is normal speed).</summary>
        public uint Speed(uint index)
        {
            uint s;
            Library.Check(Native.animkit_batch_speed(Handle, index, out s));
            return s;
        }

        public uint State(uint index)
        {
            uint s;
            Library.Check(Native.animkit_batch_state(Handle, index, out s));
            return s;
        }

        /// <summary>The sprite index to draw from the state's sheet. Throws with OutOfRange past the end.</summary>
        public uint Frame(uint index)
        {
            uint f;
            Library.Check(Native.animkit_batch_frame(Handle, index, out f));
            return f;
        }

        /// <summary>Every animation's sprite index, copied into frames (resized when too short);
        /// the number of animations.</summary>
        public int Frames(ref uint[] frames)
        {
            IntPtr p;
            UIntPtr len;
            Library.Check(Native.animkit_batch_frames(Handle, out p, out len));
            int n = (int)len;
            if (frames == null || frames.Length < n) frames = new uint[n];
            if (n > 0)
            {
                var tmp = new int[n];
                Marshal.Copy(p, tmp, 0, n);
                Buffer.BlockCopy(tmp, 0, frames, 0, n * 4);
            }
            return n;
        }

        public ulong TimeInState(uint index)
        {
            ulong t;
            Library.Check(Native.animkit_batch_time_in_state(Handle, index, out t));
            return t;
        }

        /// <summary>Whether animation index waits for the game (a _wait end, or a halt).</summary>
        public bool IsWaiting(uint index)
        {
            bool w;
            Library.Check(Native.animkit_batch_is_waiting(Handle, index, out w));
            return w;
        }

        /// <summary>Removes animation index: the last one takes its index.</summary>
        public void Remove(uint index) { Library.Check(Native.animkit_batch_remove(Handle, index)); }

        public ulong DroppedEvents
        {
            get
            {
                ulong d;
                Library.Check(Native.animkit_batch_dropped_events(Handle, out d));
                return d;
            }
        }

        /// <summary>Every pending event, oldest first (by tick, then instance).</summary>
        public List<InstanceEvent> DrainEvents()
        {
            var all = new List<InstanceEvent>();
            while (true)
            {
                UIntPtr n;
                Library.Check(Native.animkit_batch_drain_events(Handle, events, (UIntPtr)events.Length, out n));
                for (int i = 0; i < (int)n; i++) all.Add(events[i]);
                if ((int)n < events.Length) return all;
            }
        }

        /// <summary>The batch saved as bytes that Restore reads back into a batch of the same module.</summary>
        public byte[] Snapshot()
        {
            UIntPtr len;
            var status = Native.animkit_batch_snapshot(Handle, null, UIntPtr.Zero, out len);
            if (status != Status.BufferTooSmall) Library.Check(status);
            var buffer = new byte[(int)len];
            Library.Check(Native.animkit_batch_snapshot(Handle, buffer, (UIntPtr)buffer.Length, out len));
            return buffer;
        }

        /// <summary>Replaces the animations with a snapshot. Throws with SnapshotWrongModule,
        /// SnapshotInvalid (the batch unchanged).</summary>
        public void Restore(byte[] snapshot)
        {
            Library.Check(Native.animkit_batch_restore(Handle, snapshot, (UIntPtr)(snapshot == null ? 0 : snapshot.Length)));
        }

        /// <summary>Hot reload: moves every animation onto sprite, a new build of the batch's module
        /// (from a recompiled bundle); those of a state it lacks restart in fallbackState (a state
        /// of sprite). Throws with InvalidArgument (a module of another name), UnknownState (the
        /// batch unchanged).</summary>
        public ReloadReport Reload(Sprite sprite, uint fallbackState)
        {
            if (sprite == null) throw new ArgumentNullException("sprite");
            ReloadReport report;
            Library.Check(Native.animkit_batch_reload(Handle, sprite.Handle, fallbackState, out report));
            return report;
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A SLAP scene: actors and camera frame by frame, for a game that draws them.</summary>
    public sealed class Scene : IDisposable
    {
        public readonly SceneHandle Handle;

        internal Scene(SceneHandle handle) { Handle = handle; }

        public void Step() { Library.Check(Native.animkit_scene_step(Handle)); }
        public void Advance(ulong frames) { Library.Check(Native.animkit_scene_advance(Handle, frames)); }
        public void Seek(ulong frame) { Library.Check(Native.animkit_scene_seek(Handle, frame)); }

        public ulong Frame
        {
            get { ulong f; Library.Check(Native.animkit_scene_frame(Handle, out f)); return f; }
        }

        /// <summary>The frame of the last time point (where a cutscene ends).</summary>
        public ulong Length
        {
            get { ulong l; Library.Check(Native.animkit_scene_length(Handle, out l)); return l; }
        }

        public bool IsFinished
        {
            get { bool f; Library.Check(Native.animkit_scene_is_finished(Handle, out f)); return f; }
        }

        public ulong ErrorCount
        {
            get { ulong n; Library.Check(Native.animkit_scene_error_count(Handle, out n)); return n; }
        }

        /// <summary>Every actor on stage, in id order.</summary>
        public Actor[] Actors()
        {
            UIntPtr n;
            Library.Check(Native.animkit_scene_actor_count(Handle, out n));
            var actors = new Actor[(int)n];
            Library.Check(Native.animkit_scene_actors(Handle, actors, n, out n));
            return actors;
        }

        /// <summary>The actor id. Throws with OutOfRange when the script has not made it (yet).</summary>
        public Actor ActorById(uint id)
        {
            Actor a;
            Library.Check(Native.animkit_scene_actor(Handle, id, out a));
            return a;
        }

        public Camera Camera
        {
            get { Camera c; Library.Check(Native.animkit_scene_camera(Handle, out c)); return c; }
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
