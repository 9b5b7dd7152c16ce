package dev.spool.bench.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the agent adds to an instrumented Jackson call whose file is not buffered: the advice's
 * call into the boot bridge ({@code Hooks.writeJson}) answering "not handled" for {@code app.log}
 * (the include glob is {@code **}{@code /*.json}). Measured in a JVM with the agent, against a
 * baseline that does the same argument handling without the hook.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-javaagent:agent/target/spool-agent.jar")
public class NonMatchingHookBench {

    private static final MethodHandle WRITE_JSON;

    static {
        try {
            Class<?> hooks = Class.forName("dev.spool.bridge.Hooks", true, null);
            WRITE_JSON = MethodHandles.publicLookup().findStatic(hooks, "writeJson",
                    MethodType.methodType(boolean.class, Object.class, File.class, Object.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError("run with -javaagent:agent/target/spool-agent.jar: " + e);
        }
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final File file = new File("logs/app.log");
    private final Object value = Map.of("a", 1);

    @Setup
    public void check() throws Throwable {
        if ((boolean) WRITE_JSON.invokeExact((Object) mapper, file, value)) {
            throw new IllegalStateException("app.log must not be buffered");
        }
    }

    @Benchmark
    public boolean baseline() {
        return file.getPath().isEmpty() && value != mapper;
    }

    @Benchmark
    public boolean nonMatchingHook() throws Throwable {
        return (boolean) WRITE_JSON.invokeExact((Object) mapper, file, value);
    }
}
