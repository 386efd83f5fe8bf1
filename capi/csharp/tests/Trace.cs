// `animvm --trace` through the C# binding (capi/tests/csharp.rs compares the
// two byte for byte):
//
//     mono trace.exe BUNDLE STATE TICKS [SNAPSHOT_AT]
//
// plays STATE of the bundle's first sprite module for TICKS ticks, one JSON
// line a tick; at tick SNAPSHOT_AT the batch is saved, disposed, and
// restored into a new one.

using System;
using System.IO;
using System.Text;
using Animkit;

static class Trace
{
    // A JSON string as serde_json writes it.
    static string Json(string s)
    {
        var b = new StringBuilder("\"");
        foreach (char c in s)
        {
            switch (c)
            {
                case '"': b.Append("\\\""); break;
                case '\\': b.Append("\\\\"); break;
                case '\n': b.Append("\\n"); break;
                case '\r': b.Append("\\r"); break;
                case '\t': b.Append("\\t"); break;
                case '\b': b.Append("\\b"); break;
                case '\f': b.Append("\\f"); break;
                default:
                    if (c < 0x20) b.Append("\\u00").Append(((int)c).ToString("x2"));
                    else b.Append(c);
                    break;
            }
        }
        return b.Append('"').ToString();
    }

    static int Main(string[] args)
    {
        if (args.Length < 3)
        {
            Console.Error.WriteLine("usage: trace.exe BUNDLE STATE TICKS [SNAPSHOT_AT]");
            return 2;
        }
        int ticks = int.Parse(args[2]);
        int snapshotAt = args.Length > 3 ? int.Parse(args[3]) : -1;
        var output = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false));
        output.NewLine = "\n";
        try
        {
            using (var bundle = Bundle.Open(File.ReadAllBytes(args[0])))
            {
                string name = null;
                for (int i = 0; i < bundle.ModuleCount && name == null; i++)
                {
                    var m = bundle.Module(i);
                    if (m.Value == ModuleKind.Sprite) name = m.Key;
                }
                using (var hero = bundle.Sprite(name))
                {
                    var batch = hero.NewBatch();
                    batch.Spawn(hero.State(args[1]));
                    for (int t = 0; t < ticks; t++)
                    {
                        if (t == snapshotAt)
                        {
                            byte[] saved = batch.Snapshot();
                            batch.Dispose();
                            batch = hero.NewBatch();
                            batch.Restore(saved);
                        }
                        batch.Tick();
                        uint now = batch.State(0);
                        var events = new StringBuilder();
                        foreach (var e in batch.DrainEvents())
                        {
                            if (events.Length > 0) events.Append(',');
                            events.Append(Json(hero.EventName(e.Event)));
                        }
                        output.WriteLine("{\"tick\":" + t + ",\"state\":" + Json(hero.StateName(now)) + ",\"category\":"
                            + Json(hero.Category(now)) + ",\"frame\":" + batch.Frame(0) + ",\"events\":[" + events + "]}");
                    }
                    batch.Dispose();
                }
            }
        }
        catch (AnimkitException e)
        {
            output.Flush();
            Console.Error.WriteLine("trace.exe: " + e.Message + " (" + Library.StatusName(e.Status) + ")");
            return 1;
        }
        output.Flush();
        return 0;
    }
}
