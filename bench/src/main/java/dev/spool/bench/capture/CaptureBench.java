package dev.spool.bench.capture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 12's micro figures for the sample app's document, side by side in one run: what the
 * application's thread pays for a write and a served read.
 * <ul>
 *   <li>{@code jacksonWriteValueAsBytes} / {@code jacksonCaptureTokens}: Jackson alone, encoding vs
 *       serializing into a {@code TokenBuffer} (no agent);
 *   <li>{@code jacksonReadBytes} / {@code jacksonReadTokens}: {@code readValue(byte[])} vs
 *       {@code readValue(tokens.asParser())};
 *   <li>{@code agentWrite*} / {@code agentRead*}: {@code writeValue(File)} and
 *       {@code readValue(File)} under the agent, capture on (tokens) and off (bytes encoded at the
 *       call, reads parsed from bytes); the reads run with no timed flush so that the file stays
 *       buffered. Run from the repository root (the agent jar's path);
 *   <li>{@code agentWriteExclusive} / {@code agentReadExclusive}: the same captured write and served
 *       read under {@code spool.buffer.exclusive=true} (no {@code lstat} per call).
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CaptureBench {

    private static final String AGENT = "-javaagent:agent/target/spool-agent.jar=spool.log.level=warn";

    private final ObjectMapper mapper = new ObjectMapper();
    private final ObjectWriter writer = mapper.writer();
    private Map<String, Object> doc;
    private byte[] bytes;
    private TokenBuffer tokens;
    private File file;

    @Setup
    public void setUp() throws IOException {
        doc = Docs.sampleApp(1234);
        bytes = mapper.writeValueAsBytes(doc);
        tokens = new TokenBuffer(mapper, false);
        writer.writeValue(tokens, doc);
        File dir = Files.createTempDirectory("capture-bench").toFile();
        file = new File(dir, "job.json");
        mapper.writeValue(file, doc);
    }

    @Benchmark
    public byte[] jacksonWriteValueAsBytes() throws IOException {
        return mapper.writeValueAsBytes(doc);
    }

    @Benchmark
    public TokenBuffer jacksonCaptureTokens() throws IOException {
        TokenBuffer t = new TokenBuffer(mapper, false);
        mapper.writer().writeValue(t, doc);
        return t;
    }

    @Benchmark
    public Map<?, ?> jacksonReadBytes() throws IOException {
        return mapper.readValue(bytes, Map.class);
    }

    @Benchmark
    public Map<?, ?> jacksonReadTokens() throws IOException {
        return mapper.readValue(tokens.asParser(mapper), Map.class);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT)
    public File agentWriteCaptured() throws IOException {
        mapper.writeValue(file, doc);
        return file;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT + ",spool.buffer.capture=false")
    public File agentWriteEncodedAtCall() throws IOException {
        mapper.writeValue(file, doc);
        return file;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT + ",spool.buffer.flush.interval=0")
    public Map<?, ?> agentReadFromTokens() throws IOException {
        return mapper.readValue(file, Map.class);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT + ",spool.buffer.capture=false,spool.buffer.flush.interval=0")
    public Map<?, ?> agentReadFromBytes() throws IOException {
        return mapper.readValue(file, Map.class);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT + ",spool.buffer.exclusive=true")
    public File agentWriteExclusive() throws IOException {
        mapper.writeValue(file, doc);
        return file;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = AGENT + ",spool.buffer.exclusive=true,spool.buffer.flush.interval=0")
    public Map<?, ?> agentReadExclusive() throws IOException {
        return mapper.readValue(file, Map.class);
    }
}
