package dev.spool.bench.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the agent adds to every host JDK file operation (session 7, {@code dev.spool.agent.files}):
 * the woven block's call {@code Hooks.fileOp(FILE_READ, path, null)} for a file that is not
 * buffered, while the buffer holds no entry ({@code buffered=false}: one volatile read and a map
 * size) and while it holds one ({@code buffered=true}: the path normalised and looked up), against
 * a baseline doing the same argument handling; and {@code statNotBuffered}, a whole
 * {@code Files.size} of such a file (woven), and {@code existsNotBuffered}, a whole
 * {@code File.exists} (woven since session 9), for scale. Timed flush off, so the buffered entry stays.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar=spool.buffer.flush.interval=0,spool.log.level=warn")
public class HostFileOpHookBench {

    private static final MethodHandle FILE_OP;
    private static final int FILE_READ;

    static {
        try {
            Class<?> hooks = Class.forName("dev.spool.bridge.Hooks", true, null);
            FILE_OP = MethodHandles.publicLookup().findStatic(hooks, "fileOp",
                    MethodType.methodType(void.class, int.class, Object.class, Object.class));
            FILE_READ = hooks.getField("FILE_READ").getInt(null);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("run with -javaagent:agent/target/spool-agent.jar: " + e);
        }
    }

    @Param({"false", "true"})
    public boolean buffered;

    private Path other;
    private File otherFile;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path dir = Files.createTempDirectory("spool-fileop-bench");
        other = Files.writeString(dir.resolve("other.txt"), "not buffered");
        otherFile = other.toFile();
        if (buffered) {
            File doc = dir.resolve("doc.json").toFile();
            ObjectMapper mapper = new ObjectMapper();
            mapper.writeValue(doc, Map.of("a", 1));
            mapper.writeValue(doc, Map.of("a", 2)); // buffered: the buffer holds an entry
        }
    }

    @Benchmark
    public boolean baseline() {
        return other.getFileName() != null && FILE_READ != 0;
    }

    @Benchmark
    public void fileOpNotBuffered() throws Throwable {
        FILE_OP.invokeExact(FILE_READ, (Object) other, (Object) null);
    }

    @Benchmark
    public long statNotBuffered() throws IOException {
        return Files.size(other);
    }

    /** {@code File.exists} of a file that is not buffered (woven since session 9: {@code FILE_STAT}). */
    @Benchmark
    public boolean existsNotBuffered() {
        return otherFile.exists();
    }
}
