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
    ENABLED("spool.enabled", ValueType.BOOLEAN, "true"),
    LOG_LEVEL("spool.log.level", ValueType.choice("off", "error", "warn", "info", "debug"), "info"),
    BUFFER_INCLUDE("spool.buffer.include", ValueType.GLOBS, "**/*.json"),
    BUFFER_EXCLUDE("spool.buffer.exclude", ValueType.GLOBS, ""),
    BUFFER_CAPACITY("spool.buffer.capacity", ValueType.intRange(1, Integer.MAX_VALUE), "10000"),
    BUFFER_CAPACITY_BYTES("spool.buffer.capacity.bytes", ValueType.sizeRange(1, Long.MAX_VALUE),
            Long.toString(dev.spool.buffer.BufferSettings.DEFAULT_CAPACITY_BYTES)), // 1/8 of the max heap, see there
    BUFFER_FLUSH_INTERVAL("spool.buffer.flush.interval", ValueType.longRange(0, 86_400_000L), "1000"),
    BUFFER_FSYNC("spool.buffer.fsync", ValueType.BOOLEAN, "false"),
    BUFFER_FLUSH_THREADS("spool.buffer.flush.threads", ValueType.intRange(1, 64), "2"),
    BUFFER_CAPTURE("spool.buffer.capture", ValueType.BOOLEAN, "true"),
    /** The older name of {@link #BUFFER_OTHERS_CHECK}: {@code true} = {@code flush}, {@code false} = {@code call}; read only when that key is not set. */
    BUFFER_EXCLUSIVE("spool.buffer.exclusive", ValueType.BOOLEAN, "true"),
    BUFFER_OTHERS_CHECK("spool.buffer.others.check", ValueType.choice("flush", "call"), "flush"),
    BUFFER_CREATE("spool.buffer.create", ValueType.choice("call", "flush"), "call"),
    EVENTS_JUL("spool.events.jul", ValueType.BOOLEAN, "true"),
    EVENTS_LOGBACK("spool.events.logback", ValueType.BOOLEAN, "true"),
    EVENTS_CAPTURE("spool.events.capture", ValueType.BOOLEAN, "true"),
    EVENTS_CAPTURE_THREADS("spool.events.capture.threads", ValueType.intRange(1, 64), "2"),
    EVENTS_METHODS("spool.events.methods", ValueType.METHODS, ""),
    EVENTS_METHODS_MODE("spool.events.methods.mode", ValueType.choice("route", "tee"), "route"),
    EVENTS_FILE("spool.events.file", ValueType.PATH, "spool-events.spool"),
    EVENTS_VISIBILITY("spool.events.visibility", ValueType.choice("bounded", "exact"), "bounded"),
    EVENTS_VISIBILITY_MAX_MS("spool.events.visibility.max.ms", ValueType.longRange(1, 60_000L), "100"),
    SINK_TYPE("spool.sink.type", ValueType.choice("file", "mmap"), "file"),
    SINK_BUFFER_BYTES("spool.sink.buffer.bytes", ValueType.sizeRange(4096, 1L << 30), "1048576"),
    SINK_BUFFERS("spool.sink.buffers", ValueType.intRange(2, 1024), "4"),
    SINK_DIRECT_THRESHOLD("spool.sink.direct.threshold", ValueType.sizeRange(1, Integer.MAX_VALUE), "65536"),
    SINK_RECORD_MAX("spool.sink.record.max", ValueType.sizeRange(1024, 1L << 30), "16777216"),
    SINK_POLICY("spool.sink.policy", ValueType.choice("block", "drop", "sync"), "block"),
    SINK_MAX_BYTES_PER_SECOND("spool.sink.max.bytes.per.second", ValueType.sizeRange(0, Long.MAX_VALUE), "0"),
    SINK_WAIT_MILLIS("spool.sink.wait.millis", ValueType.longRange(1, 3_600_000L), "10000"),
    SINK_THREADS("spool.sink.threads", ValueType.intRange(0, 64), "2"),
    JMX_ENABLED("spool.jmx.enabled", ValueType.BOOLEAN, "true"),
    JFR_ENABLED("spool.jfr.enabled", ValueType.BOOLEAN, "true"),
    KAFKA_BOOTSTRAP_SERVERS("spool.kafka.bootstrap.servers", ValueType.TEXT, ""),
    KAFKA_TOPIC("spool.kafka.topic", ValueType.TEXT, "spool-events"),
    KAFKA_CLOSE_TIMEOUT("spool.kafka.close.timeout", ValueType.longRange(0, 600_000L), "5000"),
    CONFIG_FILE("spool.config", ValueType.PATH_OR_EMPTY, "");

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

    ConfigKey(String key, ValueType type, String defaultText) {
        this.key = key;
        this.type = type;
        this.defaultText = defaultText;
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
