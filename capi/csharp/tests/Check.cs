// Checks of the C# binding beyond the trace (run by capi/tests/csharp.rs):
// hostile calls get the documented statuses and messages as
// AnimkitException, disposed handles throw ObjectDisposedException and are
// never freed twice, handles outlive the ones they were made from.
//
//     mono check.exe HERO.animb STORY.animb

using System;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using Animkit;

static class Check
{
    // The raw function, to hand it a pointer of another kind.
    [DllImport(Native.Lib, EntryPoint = "animkit_batch_tick")]
    static extern Status RawBatchTick(IntPtr batch);

    static void Expect(Status status, string message, Action call)
    {
        try
        {
            call();
        }
        catch (AnimkitException e)
        {
            if (e.Status != status || e.Message != message)
                throw new Exception("expected " + status + " `" + message + "`, got " + e.Status + " `" + e.Message + "`");
            Console.WriteLine(Library.StatusName(e.Status) + ": " + e.Message);
            return;
        }
        throw new Exception("no error; expected " + status + " `" + message + "`");
    }

    static void ExpectDisposed(string what, Action call)
    {
        try
        {
            call();
        }
        catch (ObjectDisposedException)
        {
            Console.WriteLine(what + ": ObjectDisposedException");
            return;
        }
        throw new Exception(what + ": no ObjectDisposedException");
    }

    static int Main(string[] args)
    {
        Console.Out.NewLine = "\n";
        if (Library.Version != Library.HeaderVersion || Library.BundleFormat != 3)
            throw new Exception("version " + Library.Version + ", format " + Library.BundleFormat);
        Console.WriteLine("version " + Library.VersionString);

        var data = File.ReadAllBytes(args[0]);
        Expect(Status.NotABundle,
            "animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)",
            () => Bundle.Open(new byte[] { 0x47, 0x49, 0x46, 0x38, 0x39, 0x61 }));
        Expect(Status.Corrupt,
            "animkit_bundle_open: truncated bundle: expected " + data.Length + " bytes, found " + (data.Length - 1),
            () => Bundle.Open(data.Take(data.Length - 1).ToArray()));
        Expect(Status.NotABundle,
            "animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)",
            () => Bundle.Open(null));

        var bundle = Bundle.Open(data);
        Console.WriteLine("modules: " + string.Join(", ",
            Enumerable.Range(0, bundle.ModuleCount).Select(i => bundle.Module(i).Key + " " + bundle.Module(i).Value)));
        Expect(Status.NoModule, "animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?",
            () => bundle.Sprite("hera"));
        Expect(Status.NullPointer, "animkit_bundle_sprite: `name` is NULL", () => bundle.Sprite(null));
        var hero = bundle.Sprite("hero");
        Expect(Status.UnknownState, "animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?",
            () => hero.State("walk"));
        Expect(Status.NullPointer, "animkit_sprite_state: `name` is NULL", () => hero.State(null));
        Expect(Status.UnknownEvent, "animkit_sprite_event: no event named `Walk` in sprite module `hero`",
            () => hero.Event("Walk"));

        var crowd = hero.NewBatch();
        for (uint phase = 0; phase < 3; phase++) crowd.Spawn(hero.State("Walk"), phase * 6);
        crowd.SetSpeed(2, 2);
        crowd.Advance(1000003);
        uint[] frames = null;
        int n = crowd.Frames(ref frames);
        Console.WriteLine("after 1000003 ticks: frames [" + string.Join(", ", frames.Take(n)) + "] events "
            + crowd.DrainEvents().Count + " dropped " + crowd.DroppedEvents + " speed " + crowd.Speed(2));
        crowd.SetState(0, "Jump");
        crowd.Tick();
        Console.WriteLine("Jump by name: " + hero.StateName(crowd.State(0)) + " " + crowd.Frame(0) + " " + crowd.TimeInState(0));
        Expect(Status.OutOfRange, "animkit_batch_frame: instance 3 is past the end of the batch (3 instances)",
            () => crowd.Frame(3));
        Expect(Status.InvalidArgument, "animkit_batch_set_speed: the speed 1/0 divides by 0",
            () => crowd.SetSpeed(0, 1, 0));
        var saved = crowd.Snapshot();
        var other = hero.NewBatch();
        other.Restore(saved);
        if (other.Count != 3 || other.Frame(2) != crowd.Frame(2)) throw new Exception("restore");
        Expect(Status.SnapshotInvalid, "animkit_batch_restore: the snapshot is cut short",
            () => other.Restore(saved.Take(saved.Length - 1).ToArray()));
        Console.WriteLine("snapshot of " + saved.Length + " bytes restored");
        using (var again = Bundle.Open(data).Sprite("hero"))
        {
            var before = crowd.Frame(2);
            var r = crowd.Reload(again, again.State("Idle"));
            Console.WriteLine("reloaded: fell back " + (ulong)r.FellBack + ", clamped " + (ulong)r.Clamped + ", dropped "
                + (ulong)r.DroppedEvents + ", vanished " + (ulong)r.Vanished + ", frame kept " + (crowd.Frame(2) == before));
            Expect(Status.UnknownState, "animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`",
                () => crowd.Reload(again, 99));
        }

        // A bundle's pointer given as a batch: the library's tag check.
        Status wrong = RawBatchTick(bundle.Handle.DangerousGetHandle());
        Console.WriteLine("a bundle as a batch: " + Library.StatusName(wrong));

        // Disposed handles: thrown before the library is called; a second
        // Dispose frees nothing.
        other.Dispose();
        other.Dispose();
        ExpectDisposed("tick after dispose", () => other.Tick());
        ExpectDisposed("state after dispose", () => other.State(0));

        // A batch outlives its module and bundle.
        hero.Dispose();
        bundle.Dispose();
        ExpectDisposed("sprite of a disposed bundle", () => bundle.Sprite("hero"));
        crowd.Tick();
        Console.WriteLine("after its bundle and module: frame " + crowd.Frame(0) + ", " + crowd.Count + " animations");
        crowd.Dispose();

        // Handles the game forgets: the finalizers free each once. Six
        // rounds of 3000 bundles, modules and batches; were they not freed,
        // rounds 2 to 6 would grow the resident memory by about 110 MB.
        var rss = new long[6];
        for (int round = 0; round < 6; round++)
        {
            for (int i = 0; i < 3000; i++)
            {
                var b = Bundle.Open(data);
                b.Sprite("hero").NewBatch().Spawn(0);
            }
            GC.Collect();
            GC.WaitForPendingFinalizers();
            GC.Collect();
            rss[round] = long.Parse(File.ReadAllText("/proc/self/statm").Split(' ')[1]) * 4096;
        }
        if (rss[5] - rss[1] > 16000000) throw new Exception("leak: rounds 2 to 6 grew by " + (rss[5] - rss[1]) + " bytes");
        Console.WriteLine("18000 forgotten bundles, modules and batches freed by the GC");

        using (var story = Bundle.Open(File.ReadAllBytes(args[1])))
        {
            string name = story.Module(0).Key;
            Expect(Status.WrongKind, "animkit_bundle_sprite: module `" + name + "` is a SLAP scene, not a sprite module",
                () => story.Sprite(name));
            using (var scene = story.Scene(name))
            {
                ulong length = scene.Length;
                scene.Advance(length);
                var actors = scene.Actors();
                Console.WriteLine("scene " + name + ": frame " + scene.Frame + " of " + length + ", finished "
                    + scene.IsFinished + ", " + actors.Length + " actors, errors " + scene.ErrorCount);
                Expect(Status.OutOfRange, "animkit_scene_actor: no actor 99 on stage at frame 1200", () => scene.ActorById(99));
            }
        }
        return 0;
    }
}
