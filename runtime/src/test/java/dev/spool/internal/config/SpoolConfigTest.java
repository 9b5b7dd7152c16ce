package dev.spool.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolConfigTest {
    private final List<String> problems = new ArrayList<>();

    private SpoolConfig load(String args, Map<String, String> sys, Map<String, String> env) {
        return SpoolConfig.load(args, sys, env, problems::add);
    }

    @Test
    void shouldUseSpecDefaultsWhenNothingIsSet() {
        SpoolConfig cfg = load(null, Map.of(), Map.of());
        assertTrue(cfg.enabled());
        assertEquals("info", cfg.logLevel());
        assertEquals(List.of("**/*.json"), cfg.bufferInclude());
        assertEquals(List.of(), cfg.bufferExclude());
        assertEquals(10000, cfg.bufferCapacity());
        assertEquals(dev.spool.buffer.BufferSettings.defaultCapacityBytes(Runtime.getRuntime().maxMemory()),
                cfg.bufferCapacityBytes()); // an eighth of the max heap, at least 64 MiB
        assertEquals(1000L, cfg.bufferFlushIntervalMillis());
        assertFalse(cfg.bufferFsync());
        assertTrue(cfg.bufferExclusive(), "other processes' changes are checked at the flush by default");
        assertTrue(cfg.eventsJul());
        assertTrue(cfg.eventsLogback());
        assertEquals(List.of(), cfg.eventsMethods());
        assertEquals("route", cfg.eventsMethodsMode());
        assertEquals(Path.of("spool-events.spool"), cfg.eventsFile());
        assertEquals("file", cfg.sinkType());
        assertEquals(1048576, cfg.sinkBufferBytes());
        assertEquals(4, cfg.sinkBuffers());
        assertEquals(65536, cfg.sinkDirectThreshold());
        assertEquals(16777216, cfg.sinkRecordMax());
        assertEquals("block", cfg.sinkPolicy());
        assertEquals(0L, cfg.sinkMaxBytesPerSecond());
        assertTrue(cfg.jmxEnabled());
        assertEquals(List.of(), problems);
        assertEquals("default", cfg.sourceOf(ConfigKey.BUFFER_CAPACITY));
    }

    @Test
    void shouldApplySourcesInPrecedenceAgentArgsSystemEnvFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("spool.properties");
        Files.writeString(file, "spool.buffer.capacity=4\nspool.sink.buffers=8\nspool.buffer.fsync=true\n"
                + "sink.policy=drop\n");
        SpoolConfig cfg = load("spool.buffer.capacity=1",
                Map.of("spool.buffer.capacity", "2", "spool.sink.buffers", "6", "spool.config", file.toString()),
                Map.of("SPOOL_BUFFER_CAPACITY", "3", "SPOOL_SINK_BUFFERS", "7", "SPOOL_BUFFER_FSYNC", "false"));
        assertEquals(1, cfg.bufferCapacity());
        assertEquals("agent argument", cfg.sourceOf(ConfigKey.BUFFER_CAPACITY));
        assertEquals(6, cfg.sinkBuffers());
        assertEquals("system property", cfg.sourceOf(ConfigKey.SINK_BUFFERS));
        assertFalse(cfg.bufferFsync());
        assertEquals("environment variable", cfg.sourceOf(ConfigKey.BUFFER_FSYNC));
        assertEquals("drop", cfg.sinkPolicy());
        assertTrue(cfg.sourceOf(ConfigKey.SINK_POLICY).startsWith("file "));
        assertEquals(List.of(), problems);
    }

    @Test
    void shouldReportABadValueInOneLineNamingKeyValueSourceAndAcceptedValuesAndUseTheDefault() {
        SpoolConfig cfg = load(null, Map.of("spool.buffer.capacity", "lots"), Map.of());
        assertEquals(10000, cfg.bufferCapacity());
        assertEquals(1, problems.size());
        String line = problems.get(0);
        assertTrue(line.contains("spool.buffer.capacity=lots"), line);
        assertTrue(line.contains("system property"), line);
        assertTrue(line.contains("a whole number from 1 to"), line);
        assertTrue(line.contains("using the default 10000"), line);
        assertFalse(line.contains("\n"));
    }

    @Test
    void shouldTakeTheExclusiveSwitchAndNameItsKeyWhenTheValueIsWrong() {
        assertTrue(load("buffer.exclusive=true", Map.of(), Map.of()).bufferExclusive());
        assertFalse(load("buffer.exclusive=false", Map.of(), Map.of()).bufferExclusive(), "the older key still asks for the per-call check");
        assertEquals(List.of(), problems);
        SpoolConfig cfg = load(null, Map.of("spool.buffer.exclusive", "yes"), Map.of());
        assertTrue(cfg.bufferExclusive(), "a wrong value leaves the default");
        assertEquals(1, problems.size(), String.join("\n", problems));
        assertTrue(problems.get(0).contains("spool.buffer.exclusive=yes"), problems.get(0));
        assertTrue(problems.get(0).contains("using the default true"), problems.get(0));
    }

    @Test
    void shouldCheckOthersAtTheCallOnlyWhenAskedWithTheNewKeyWinningOverItsOlderName() {
        assertFalse(load("buffer.others.check=call", Map.of(), Map.of()).bufferExclusive());
        assertTrue(load("buffer.others.check=flush", Map.of(), Map.of()).bufferExclusive());
        assertFalse(load("buffer.others.check=call,buffer.exclusive=true", Map.of(), Map.of()).bufferExclusive());
        assertTrue(load("buffer.others.check=flush,buffer.exclusive=false", Map.of(), Map.of()).bufferExclusive());
        assertEquals(List.of(), problems);
        assertTrue(load("buffer.others.check=sometimes", Map.of(), Map.of()).bufferExclusive(), "a wrong value leaves the default");
        assertTrue(problems.get(0).contains("spool.buffer.others.check=sometimes"), problems.get(0));
    }

    @Test
    void shouldRejectOutOfRangeAndWrongTypedValuesForEveryKind() {
        SpoolConfig cfg = load("buffer.capacity=0,buffer.flush.interval=-5,buffer.fsync=yes,"
                + "sink.policy=lossy,sink.type=,sink.buffer.bytes=12,log.level=loud,events.methods=not a method,"
                + "events.file=,sink.max.bytes.per.second=99999999999g,sink.buffers=1",
                Map.of(), Map.of());
        assertEquals(11, problems.size(), String.join("\n", problems));
        assertEquals(10000, cfg.bufferCapacity());
        assertEquals(1000L, cfg.bufferFlushIntervalMillis());
        assertFalse(cfg.bufferFsync());
        assertEquals("block", cfg.sinkPolicy());
        assertEquals("file", cfg.sinkType());
        assertEquals(1048576, cfg.sinkBufferBytes());
        assertEquals("info", cfg.logLevel());
        assertEquals(List.of(), cfg.eventsMethods());
        assertEquals(Path.of("spool-events.spool"), cfg.eventsFile());
        assertEquals(0L, cfg.sinkMaxBytesPerSecond());
        assertEquals(4, cfg.sinkBuffers());
    }

    @Test
    void shouldReportUnknownKeysFromEverySource() {
        load("spool.bufer.capacity=5", Map.of("spool.nonsense", "1", "unrelated.key", "x"),
                Map.of("SPOOL_WHATEVER", "1", "PATH", "/bin"));
        assertEquals(3, problems.size(), String.join("\n", problems));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("spool.bufer.capacity (agent argument)")));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("spool.nonsense (system property)")));
        assertTrue(problems.stream().anyMatch(p -> p.startsWith("environment variable SPOOL_WHATEVER")));
    }

    @Test
    void shouldKnowTheDiagnosticSwitchesAsNoSettingsWithoutWarning() {
        load(null, Map.of("spool.logback.compiledLayout", "false", "spool.logback.rollOnWriter", "false",
                "spool.recovery.dir", "/tmp"), Map.of());
        assertEquals(List.of(), problems, "read by their own code: no 'not a Spool setting' line");
    }

    @Test
    void shouldParseListsGlobsWithBracesAndSizeSuffixesInAgentArgs() {
        SpoolConfig cfg = load("buffer.include=**/{a,b}.json;data/*.json,sink.buffer.bytes=2m,"
                + "events.methods=com.acme.Sim#emit;com.acme.Other$Inner#log,buffer.capacity.bytes=1_000",
                Map.of(), Map.of());
        assertEquals(List.of(), problems);
        assertEquals(List.of("**/{a,b}.json", "data/*.json"), cfg.bufferInclude());
        assertEquals(2 << 20, cfg.sinkBufferBytes());
        assertEquals(List.of("com.acme.Sim#emit", "com.acme.Other$Inner#log"), cfg.eventsMethods());
        assertEquals(1000L, cfg.bufferCapacityBytes());
    }

    @Test
    void shouldReportABadGlobAndAnItemWithoutEquals() {
        SpoolConfig cfg = load("buffer.include=[abc,justaword", Map.of(), Map.of());
        assertEquals(2, problems.size(), String.join("\n", problems));
        assertEquals(List.of("**/*.json"), cfg.bufferInclude());
        assertTrue(problems.stream().anyMatch(p -> p.contains("'justaword' is not of the form key=value")));
    }

    @Test
    void shouldReportAnUnreadableConfigFileOnceAndRunOnDefaults(@TempDir Path dir) {
        Path missing = dir.resolve("nope.properties");
        SpoolConfig cfg = load(null, Map.of("spool.config", missing.toString()), Map.of());
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains(missing.toAbsolutePath().toString()), problems.get(0));
        assertEquals(10000, cfg.bufferCapacity());
    }

    @Test
    void shouldEscapeControlCharactersAndCutHugeValuesInReports() {
        String hostile = "12\u001b[2J\nrm -rf /" + "x".repeat(20_000);
        load(null, Map.of("spool.buffer.capacity", hostile, "spool.sink.type", "mm\u0000ap"), Map.of());
        assertEquals(2, problems.size());
        for (String p : problems) {
            assertFalse(p.contains("\n") || p.contains("\u001b") || p.contains("\u0000"), p);
            assertTrue(p.length() < 1000, "report too long: " + p.length());
        }
    }

    @Test
    void shouldListEffectiveValuesInAsMap() {
        SpoolConfig cfg = load("buffer.exclude=a/*.json;b/*.json", Map.of(), Map.of());
        Map<String, String> map = cfg.asMap();
        assertEquals(ConfigKey.values().length, map.size());
        assertEquals("a/*.json;b/*.json", map.get("spool.buffer.exclude"));
        assertEquals("10000", map.get("spool.buffer.capacity"));
    }

    @Test
    void shouldMapKeysToEnvironmentNames() {
        assertEquals("SPOOL_BUFFER_CAPACITY_BYTES", ConfigKey.BUFFER_CAPACITY_BYTES.envName());
        assertEquals(ConfigKey.SINK_MAX_BYTES_PER_SECOND, ConfigKey.byEnvName("SPOOL_SINK_MAX_BYTES_PER_SECOND"));
        assertEquals(ConfigKey.ENABLED, ConfigKey.byName("enabled"));
    }
}
