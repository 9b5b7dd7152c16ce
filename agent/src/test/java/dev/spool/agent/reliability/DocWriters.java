package dev.spool.agent.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * The JSON writers of the kill hosts ({@link KillHost}, {@link TempKillHost}): two threads
 * ({@code writer-0}, {@code writer-1}) rewrite the files {@code doc-<d>.json} of a folder with the
 * host's own Jackson ({@code ObjectMapper.writeValue(File)}), thread {@code w} the docs {@code d}
 * with {@code d % 2 == w}, version after version; {@link #state} is the only content ever written,
 * so a test can tell a whole file from a torn one. A write failure prints its stack trace and
 * exits with status 3. Example:
 * <pre>{@code
 * Thread[] writers = DocWriters.start(dir, 8, 300, Integer.MAX_VALUE, (w, v) -> { });
 * }</pre>
 */
final class DocWriters {
    /** Called by writer {@code w} after each pass over its files (version {@code v} written). */
    @FunctionalInterface
    interface Pass {
        void done(int w, int v);
    }

    private DocWriters() {
    }

    /** The one content ever written for ({@code doc}, {@code version}), padded to about {@code pad} characters. */
    static Map<String, Object> state(int doc, int version, int pad) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("doc", doc);
        m.put("version", version);
        m.put("pad", String.valueOf((char) ('a' + (doc + version) % 26)).repeat(pad + version % 97));
        return m;
    }

    /** Starts the two writers, each writing {@code versions} versions of its docs (or until the process ends). */
    static Thread[] start(File dir, int docs, int pad, int versions, Pass pass) {
        ObjectMapper mapper = new ObjectMapper();
        Thread[] writers = new Thread[2];
        for (int w = 0; w < 2; w++) {
            int first = w;
            writers[w] = new Thread(() -> {
                try {
                    for (int v = 0; v < versions; v++) {
                        for (int d = first; d < docs; d += 2) {
                            mapper.writeValue(new File(dir, "doc-" + d + ".json"), state(d, v, pad));
                        }
                        pass.done(first, v);
                    }
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(3);
                }
            }, "writer-" + w);
            writers[w].start();
        }
        return writers;
    }
}
