package dev.spool.internal.config;

import java.util.Locale;

/**
 * Every configuration key of Spool, with its default and the kind of value it accepts.
 *
 * <p>The table in {@code SPEC.md} ("Configuration") is the contract; this enum is its one
 * implementation. {@link #key()} is the dotted name used in agent arguments, system properties
 * and configuration files; {@link #envName()} the environment variable
 * ({@code spool.buffer.capacity} becomes {@code SPOOL_BUFFER_CAPACITY}).
 */
public enum ConfigKey {
    ENABLED("spool.enabled", ValueType.BOOLEAN, "true",
            "Master switch: `false` installs nothing."),
    LOG_LEVEL("spool.log.level", ValueType.choice("off", "error", "warn", "info", "debug"), "info",
            "The agent's own diagnostics on stderr, each line prefixed `[spool]`."),
    BUFFER_INCLUDE("spool.buffer.include", ValueType.GLOBS, "**/*.json",
            "Files whose Jackson `writeValue(File, ...)` is buffered (java.nio glob syntax)."),
    BUFFER_EXCLUDE("spool.buffer.exclude", ValueType.GLOBS, "",
            "Files never buffered, even when `spool.buffer.include` matches them."),
    BUFFER_CAPACITY("spool.buffer.capacity", ValueType.intRange(1, Integer.MAX_VALUE), "10000",
            "Dirty files at which the background flush starts; the writer goes on (it bounds no memory)."),
    BUFFER_CAPACITY_BYTES("spool.buffer.capacity.bytes", ValueType.sizeRange(1, Long.MAX_VALUE),
            Long.toString(dev.spool.buffer.BufferSettings.DEFAULT_CAPACITY_BYTES), // 1/8 of the max heap, see there
            "1/8 of the max heap, at least 64 MiB, at most 1/4 of the heap",
            "The memory bound: estimated unwritten bytes plus 352 per dirty file. The background flush starts at"
                    + " half of it (content is then held encoded); above it a write waits for the flusher (at most"
                    + " 2 s, counted in `BackpressureWaits`). SPEC's table says `67108864`; see OPERATIONS.md,"
                    + " \"Sizing the buffer\"."),
    BUFFER_FLUSH_INTERVAL("spool.buffer.flush.interval", ValueType.longRange(0, 86_400_000L), "1000",
            "Milliseconds between timed flushes; `0` = none (flushes then come from capacity, `flush()` and exit)."),
    BUFFER_FSYNC("spool.buffer.fsync", ValueType.BOOLEAN, "false",
            "fsync each flushed file and its folder."),
    BUFFER_FLUSH_THREADS("spool.buffer.flush.threads", ValueType.intRange(1, 64), "2",
            "Threads writing the files of one flush (two measured best on a 2-core machine; raise it on fast"
                    + " storage with idle cores)."),
    BUFFER_CAPTURE("spool.buffer.capture", ValueType.BOOLEAN, "true",
            "Agent: capture a Jackson write into the host's `TokenBuffer` at the call and encode it at the"
                    + " flush; `false` encodes at the call."),
    /** The older name of {@link #BUFFER_OTHERS_CHECK}: {@code true} = {@code flush}, {@code false} = {@code call}; read only when that key is not set. */
    BUFFER_EXCLUSIVE("spool.buffer.exclusive", ValueType.BOOLEAN, "true",
            "The older name of `spool.buffer.others.check` (`true` = `flush`, `false` = `call`), read only when"
                    + " that key is not set."),
    BUFFER_OTHERS_CHECK("spool.buffer.others.check", ValueType.choice("flush", "call"), "flush",
            "When changes made to buffered files by other processes are looked for (this process's own JDK"
                    + " file operations are woven and always act on the current content). `flush`: at the flush"
                    + " only, so a buffered write or read makes no system call; such a change is kept on disk and"
                    + " the buffered content goes to a `.spool-conflict-*` file beside it, but reads may serve the"
                    + " buffered content until then. `call`: one `lstat` per buffered write and read; a later"
                    + " write re-bases on the other process's change and wins. Shown as `OthersCheck` on the"
                    + " Buffer bean."),
    BUFFER_CREATE("spool.buffer.create", ValueType.choice("call", "flush"), "call",
            "When a file that does not exist yet is created. `call`: at the call, atomically, so it exists when"
                    + " `writeValue` returns. `flush`: held like a rewrite and created by the background flusher"
                    + " soon after (for write-once workloads: the caller only hands it in). Until then other"
                    + " processes see no file (this process's woven reads, existence checks, listings and"
                    + " deletions create it first); a name taken meanwhile keeps its file and the content goes to"
                    + " a `.spool-conflict-*` file; a missing or unwritable folder is refused at the call (the"
                    + " host's own write meets the error); a create the disk refuses later fails at the flush and"
                    + " is retried like a rewrite. Shown as `CreateAtFlush` on the Buffer bean."),
    EVENTS_JUL("spool.events.jul", ValueType.BOOLEAN, "true",
            "Route the output of JUL `FileHandler`s."),
    EVENTS_LOGBACK("spool.events.logback", ValueType.BOOLEAN, "true",
            "Route the output of Logback file appenders."),
    EVENTS_CAPTURE("spool.events.capture", ValueType.BOOLEAN, "true",
            "Agent: for a routed JUL `FileHandler` with the JDK's `SimpleFormatter` (any format) or"
                    + " `XMLFormatter`, capture each record at the call and format it on a writer thread, same"
                    + " bytes; `false` formats on the caller's thread. See LIBRARIES.md."),
    EVENTS_CAPTURE_THREADS("spool.events.capture.threads", ValueType.intRange(1, 64), "2",
            "Agent: threads of the one pool that encodes every captured log, at most one thread per log at a"
                    + " time (each file keeps its order). With `1`, a host thread holding a JUL handler's monitor"
                    + " holds up the other captured logs meanwhile."),
    EVENTS_METHODS("spool.events.methods", ValueType.METHODS, "",
            "Emitter methods whose arguments become one event each in `spool.events.file`."),
    EVENTS_METHODS_MODE("spool.events.methods.mode", ValueType.choice("route", "tee"), "route",
            "`route` skips the emitter method's original body; `tee` runs it too."),
    EVENTS_FILE("spool.events.file", ValueType.PATH, "spool-events.spool",
            "The structured event file (format: FORMAT.md; read it with `java -jar spool-agent.jar cat`)."),
    EVENTS_VISIBILITY("spool.events.visibility", ValueType.choice("bounded", "exact"), "bounded",
            "When a routed log record reaches its file. `bounded`: within `spool.events.visibility.max.ms`,"
                    + " batched by the sink's writer. `exact`: before the handler's call returns, as without the"
                    + " agent (log handlers are then not routed). See LIBRARIES.md, \"Log visibility\"."),
    EVENTS_VISIBILITY_MAX_MS("spool.events.visibility.max.ms", ValueType.longRange(1, 60_000L), "100",
            "The bound under `bounded` visibility, in milliseconds."),
    SINK_TYPE("spool.sink.type", ValueType.choice("file", "mmap"), "file",
            "`file` (FileChannel writes) or `mmap` (blocks allocated with zeros ahead of the mapped data, so a"
                    + " full disk is a retried error, not a lost buffer)."),
    SINK_BUFFER_BYTES("spool.sink.buffer.bytes", ValueType.sizeRange(4096, 1L << 30), "1048576",
            "Size of one sink buffer."),
    SINK_BUFFERS("spool.sink.buffers", ValueType.intRange(2, 1024), "4",
            "Number of sink buffers: producers fill one while the writer drains others (not in SPEC's table)."),
    SINK_DIRECT_THRESHOLD("spool.sink.direct.threshold", ValueType.sizeRange(1, Integer.MAX_VALUE), "65536",
            "A payload at least this large skips the copy and is written directly."),
    SINK_RECORD_MAX("spool.sink.record.max", ValueType.sizeRange(1024, 1L << 30), "16777216",
            "A record larger than this is split into parts."),
    SINK_POLICY("spool.sink.policy", ValueType.choice("block", "drop", "sync"), "block",
            "When every sink buffer is full: `block` (wait, bounded by `spool.sink.wait.millis`), `drop`"
                    + " (counted in `Dropped`) or `sync` (the caller writes)."),
    SINK_MAX_BYTES_PER_SECOND("spool.sink.max.bytes.per.second", ValueType.sizeRange(0, Long.MAX_VALUE), "0",
            "Throughput limit of each sink's writer; `0` = none."),
    SINK_WAIT_MILLIS("spool.sink.wait.millis", ValueType.longRange(1, 3_600_000L), "10000",
            "The longest any thread waits inside a sink (a `block` producer for a free buffer, a direct write,"
                    + " a flush, close). Past it the write fails, counted in `Dropped` with `LastError`; a routed"
                    + " log stream reports an `IOException` to the handler's error path."),
    SINK_JOURNAL("spool.sink.journal", ValueType.BOOLEAN, "true",
            "An event file's sink (either back end) keeps its buffers in a memory-mapped journal beside the file"
                    + " (`<file>.journal`, `spool.sink.buffers` + 2 buffers' size): an event whose `emit` returned"
                    + " survives a SIGKILL of the process (not a power loss) and is replayed, once, by the next open of"
                    + " the file. Also a routed JUL `FileHandler` with `SimpleFormatter` that never rotates: each"
                    + " captured record is journaled at the call (`<log file>.spool-journal`, 4 MiB) and replayed, once,"
                    + " at the next start of routing for the file or by `spool recover FILE`; and a routed Logback"
                    + " appender whose encoding Spool defers: each event at the call (`<log file>.spool-logback-journal`,"
                    + " 4 MiB, with the bytes of any event Logback encodes itself), replayed, once, with the appender's"
                    + " encoder at its next start of routing. `false`: buffers in memory, lost with the process as before."),
    SINK_JOURNAL_HOST_BYTES("spool.sink.journal.hostBytes", ValueType.BOOLEAN, "true",
            "With `spool.sink.journal`: also journal a routed Logback appender whose encoder Spool does not run"
                    + " (an encoder, layout or converter it does not know, e.g. JSON encoders or Spring Boot's stock"
                    + " pattern; a size-based policy it cannot check elsewhere): the bytes Logback encoded on the"
                    + " caller's thread, stored as they reach the routed stream (`<log file>.spool-logback-journal`)"
                    + " and written back unchanged at the next start of routing. The journal exists while it may hold"
                    + " lines: made at the appender's first bytes, removed when the application lists or deletes in"
                    + " the log's folder with every line in the file (its first 4 times at once, then at most once a"
                    + " minute: each removal costs a new 4 MiB journal at the next line). `false`: such appenders can lose their last"
                    + " 100 ms to a kill -9."),
    SINK_THREADS("spool.sink.threads", ValueType.intRange(0, 64), "2",
            "Agent: threads of the one pool that writes every sink of the process (each routed log and the"
                    + " event file; one thread per sink at a time, so each file keeps its order), plus a timer"
                    + " thread. A sink whose write blocks gets a spare thread after 100 ms. `0`: a writer thread"
                    + " per sink."),
    JMX_ENABLED("spool.jmx.enabled", ValueType.BOOLEAN, "true",
            "Register the MBeans, once the JVM's platform MBean server exists (a JMX client, `jmxremote`"
                    + " flags, another agent or the host creates it; Spool never does)."),
    JFR_ENABLED("spool.jfr.enabled", ValueType.BOOLEAN, "true",
            "Emit Spool's JFR events (`dev.spool.*`) when a recording asks for them; `false` never loads them."),
    KAFKA_BOOTSTRAP_SERVERS("spool.kafka.bootstrap.servers", ValueType.TEXT, "",
            "Ship the event file to this Kafka cluster (brokers separated by `;` in agent arguments, by `,` or"
                    + " `;` elsewhere). Empty: shipping off, no Kafka class loaded."),
    KAFKA_TOPIC("spool.kafka.topic", ValueType.TEXT, "spool-events",
            "The Kafka topic."),
    KAFKA_CLOSE_TIMEOUT("spool.kafka.close.timeout", ValueType.longRange(0, 600_000L), "5000",
            "Milliseconds the host's exit may wait for shipping to catch up; the rest waits for the next"
                    + " start or `ship`."),
    CONFIG_FILE("spool.config", ValueType.PATH_OR_EMPTY, "",
            "A properties file with any of these keys (the lowest precedence).");

    /**
     * Every other {@code spool.kafka.<producer key>} is not a Spool key but a Kafka producer
     * setting passed through ({@link SpoolConfig#kafkaSettings()}).
     */
    public static final String KAFKA_PREFIX = "spool.kafka.";

    /**
     * System properties under {@code spool.} that are not settings but switches read by their own
     * code, for diagnosis and tests: {@code spool.logback.compiledLayout=false} (Logback's layouts
     * formatted by Logback itself, to measure the compiled ones), {@code spool.logback.rollOnWriter=false}
     * (size-based rolling appenders encoded and checked on the caller's thread, to measure the moved
     * check) and {@code spool.recovery.dir} (the recovery folder's parent). The configuration neither
     * reads nor warns about them.
     */
    public static final java.util.Set<String> DIAGNOSTIC_PROPERTIES =
            java.util.Set.of("spool.logback.compiledLayout", "spool.logback.rollOnWriter", "spool.recovery.dir");

    private final String key;
    private final ValueType type;
    private final String defaultText;
    private final String documentedDefault;
    private final String description;

    /**
     * A key without a description yet (kept so a key added on another branch still compiles after a
     * merge): {@code ConfigurationReferenceTest} fails until it has one and the reference is regenerated.
     */
    ConfigKey(String key, ValueType type, String defaultText) {
        this(key, type, defaultText, null, "");
    }

    ConfigKey(String key, ValueType type, String defaultText, String description) {
        this(key, type, defaultText, null, description);
    }

    ConfigKey(String key, ValueType type, String defaultText, String documentedDefault, String description) {
        this.key = key;
        this.type = type;
        this.defaultText = defaultText;
        this.documentedDefault = documentedDefault;
        this.description = description;
    }

    /** The dotted name, such as {@code spool.buffer.capacity}. */
    public String key() {
        return key;
    }

    /** The environment variable for this key, such as {@code SPOOL_BUFFER_CAPACITY}. */
    public String envName() {
        return key.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** The default as it would be written in a configuration source. */
    public String defaultText() {
        return defaultText;
    }

    /**
     * The default as the reference documents it: {@link #defaultText()}, except for a default this
     * JVM computes (such as {@code spool.buffer.capacity.bytes}, which follows the heap), where it
     * is the rule in words.
     */
    public String documentedDefault() {
        return documentedDefault != null ? documentedDefault : defaultText;
    }

    /** What the key does, in one or a few sentences of Markdown (docs/CONFIGURATION.md is made from it). */
    public String description() {
        return description;
    }

    /** What this key accepts, in words, for error messages and documentation. */
    public String accepted() {
        return type.accepted();
    }

    ValueType type() {
        return type;
    }

    Object defaultValue() {
        try {
            return type.parse(defaultText);
        } catch (IllegalArgumentException e) {
            throw new AssertionError("default of " + key + " does not parse", e);
        }
    }

    /** The key named by a dotted name, or {@code null}. A missing {@code spool.} prefix is added. */
    public static ConfigKey byName(String name) {
        String full = name.startsWith("spool.") ? name : "spool." + name;
        for (ConfigKey k : values()) {
            if (k.key.equals(full)) {
                return k;
            }
        }
        return null;
    }

    /** The key whose environment variable is {@code envName}, or {@code null}. */
    public static ConfigKey byEnvName(String envName) {
        for (ConfigKey k : values()) {
            if (k.envName().equals(envName)) {
                return k;
            }
        }
        return null;
    }
}
