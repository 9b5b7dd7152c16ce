package dev.spool.internal.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Spool's effective configuration: every key of {@link ConfigKey} with a validated value.
 *
 * <p>Sources, highest first: agent arguments ({@code key=value,key=value}; list items separated
 * by {@code ;}), system properties ({@code -Dspool.buffer.capacity=500}), environment variables
 * ({@code SPOOL_BUFFER_CAPACITY=500}), and a properties file named by {@code spool.config} in any
 * of those. An unknown key or a bad value is reported as one line to the problem handler, naming
 * the key, the value, its source and what is accepted; the default is then used. Loading never
 * throws for bad input.
 *
 * <p>Instances are immutable and safe to share between threads.
 *
 * <pre>{@code
 * SpoolConfig cfg = SpoolConfig.load(agentArgs, SpoolConfig.systemProperties(), System.getenv(),
 *         line -> System.err.println("[spool] " + line));
 * int capacity = cfg.bufferCapacity();
 * }</pre>
 */
public final class SpoolConfig {
    private final Map<ConfigKey, Object> values;
    private final Map<ConfigKey, String> sources;
    private final Map<String, String> kafkaPassThrough;

    private SpoolConfig(Map<ConfigKey, Object> values, Map<ConfigKey, String> sources,
                        Map<String, String> kafkaPassThrough) {
        this.values = Collections.unmodifiableMap(new EnumMap<>(values));
        this.sources = Collections.unmodifiableMap(new EnumMap<>(sources));
        this.kafkaPassThrough = Collections.unmodifiableMap(new LinkedHashMap<>(kafkaPassThrough));
    }

    /** Every key at its default. */
    public static SpoolConfig defaults() {
        return load(null, Map.of(), Map.of(), p -> { });
    }

    /** Loads from this JVM's system properties and environment (no agent arguments). */
    public static SpoolConfig fromSystem(Consumer<String> problems) {
        return load(null, systemProperties(), System.getenv(), problems);
    }

    /** A copy of the system properties as a string map (values that are not strings skipped). */
    public static Map<String, String> systemProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            out.put(name, System.getProperty(name));
        }
        return out;
    }

    /**
     * Loads the configuration from its sources.
     *
     * @param agentArgs the agent argument string, or {@code null}
     * @param systemProperties system properties (only {@code spool.*} entries are read)
     * @param env environment variables (only {@code SPOOL_*} entries are read)
     * @param problems receives one line per problem (no prefix; the caller adds {@code [spool]})
     */
    public static SpoolConfig load(String agentArgs, Map<String, String> systemProperties,
                                   Map<String, String> env, Consumer<String> problems) {
        Objects.requireNonNull(problems, "problems");
        List<Map<String, String>> layers = new ArrayList<>();
        List<String> layerNames = new ArrayList<>();
        layers.add(ConfigSources.parseAgentArgs(agentArgs, problems));
        layerNames.add("agent argument");
        layers.add(ConfigSources.fromSystemProperties(systemProperties));
        layerNames.add("system property");
        layers.add(ConfigSources.fromEnvironment(env, problems));
        layerNames.add("environment variable");

        String configFile = null;
        String configFileSource = null;
        for (int i = 0; i < layers.size() && configFile == null; i++) {
            String v = layers.get(i).get(ConfigKey.CONFIG_FILE.key());
            if (v != null && !v.isBlank()) {
                configFile = v.trim();
                configFileSource = layerNames.get(i);
            }
        }
        if (configFile != null) {
            Path file;
            try {
                file = Path.of(configFile);
                Map<String, String> fromFile = ConfigSources.fromFile(file, problems);
                fromFile.remove(ConfigKey.CONFIG_FILE.key());
                layers.add(fromFile);
                layerNames.add("file " + file.toAbsolutePath());
            } catch (IllegalArgumentException e) {
                problems.accept(ConfigKey.CONFIG_FILE.key() + "=" + Problems.show(configFile)
                        + " (" + configFileSource + ") is not a valid path; no file is read");
            }
        }

        Map<ConfigKey, Object> values = new EnumMap<>(ConfigKey.class);
        Map<ConfigKey, String> sources = new EnumMap<>(ConfigKey.class);
        Map<String, String> kafka = new LinkedHashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            for (Map.Entry<String, String> e : layers.get(i).entrySet()) {
                String name = e.getKey();
                if (ConfigKey.byName(name) == null && name.startsWith(ConfigKey.KAFKA_PREFIX)
                        && name.length() > ConfigKey.KAFKA_PREFIX.length()) {
                    kafka.putIfAbsent(name.substring(ConfigKey.KAFKA_PREFIX.length()), e.getValue());
                } else if (ConfigKey.byName(name) == null && !ConfigKey.DIAGNOSTIC_PROPERTIES.contains(name)) {
                    problems.accept(Problems.show(name) + " (" + layerNames.get(i)
                            + ") is not a Spool setting; ignored (known: " + Problems.knownKeys() + ")");
                }
            }
        }
        for (ConfigKey key : ConfigKey.values()) {
            values.put(key, key.defaultValue());
            sources.put(key, "default");
            for (int i = 0; i < layers.size(); i++) {
                String raw = layers.get(i).get(key.key());
                if (raw == null) {
                    continue;
                }
                parseInto(key, raw, layerNames.get(i), values, sources, problems);
                break;
            }
        }
        return new SpoolConfig(values, sources, kafka);
    }

    private static void parseInto(ConfigKey key, String raw, String source, Map<ConfigKey, Object> values,
                                  Map<ConfigKey, String> sources, Consumer<String> problems) {
        String why;
        if (raw.length() > ValueType.MAX_VALUE_LENGTH) {
            why = "longer than " + ValueType.MAX_VALUE_LENGTH + " characters";
        } else {
            try {
                values.put(key, key.type().parse(raw));
                sources.put(key, source);
                return;
            } catch (IllegalArgumentException e) {
                why = Problems.show(String.valueOf(e.getMessage())); // may echo the raw value, over several lines
            }
        }
        problems.accept(key.key() + "=" + Problems.show(raw) + " (" + source + ") is not accepted: " + why
                + "; expected " + key.accepted() + "; using the default "
                + (key.defaultText().isEmpty() ? "(none)" : key.defaultText()));
    }

    /** The effective value of every key, as text, in declaration order. */
    public Map<String, String> asMap() {
        Map<String, String> out = new LinkedHashMap<>();
        for (ConfigKey key : ConfigKey.values()) {
            Object v = values.get(key);
            out.put(key.key(), v instanceof List<?> l ? joinList(l) : String.valueOf(v));
        }
        return out;
    }

    /** Where the effective value of {@code key} came from ("default", "system property", ...). */
    public String sourceOf(ConfigKey key) {
        return sources.get(key);
    }

    private static String joinList(List<?> list) {
        StringBuilder sb = new StringBuilder();
        for (Object o : list) {
            if (sb.length() > 0) {
                sb.append(';');
            }
            sb.append(o);
        }
        return sb.toString();
    }

    private boolean bool(ConfigKey k) {
        return (Boolean) values.get(k);
    }

    private String text(ConfigKey k) {
        return (String) values.get(k);
    }

    private long number(ConfigKey k) {
        return ((Number) values.get(k)).longValue();
    }

    @SuppressWarnings("unchecked")
    private List<String> list(ConfigKey k) {
        return (List<String>) values.get(k);
    }

    public boolean enabled() { return bool(ConfigKey.ENABLED); }
    /** One of off, error, warn, info, debug. */
    public String logLevel() { return text(ConfigKey.LOG_LEVEL); }
    public List<String> bufferInclude() { return list(ConfigKey.BUFFER_INCLUDE); }
    public List<String> bufferExclude() { return list(ConfigKey.BUFFER_EXCLUDE); }
    public int bufferCapacity() { return (int) number(ConfigKey.BUFFER_CAPACITY); }
    public long bufferCapacityBytes() { return number(ConfigKey.BUFFER_CAPACITY_BYTES); }
    public long bufferFlushIntervalMillis() { return number(ConfigKey.BUFFER_FLUSH_INTERVAL); }
    public boolean bufferFsync() { return bool(ConfigKey.BUFFER_FSYNC); }
    public int bufferFlushThreads() { return (int) number(ConfigKey.BUFFER_FLUSH_THREADS); }
    public boolean bufferCapture() { return bool(ConfigKey.BUFFER_CAPTURE); }
    /**
     * Whether changes made by other processes to buffered files are checked at the flush only
     * ({@code spool.buffer.others.check=flush}, the default: no {@code lstat} per buffered Jackson
     * write or read; README) rather than at each call ({@code call}). {@code spool.buffer.exclusive}
     * is the key's older name ({@code true} = flush), read only when the new key is not set.
     */
    public boolean bufferExclusive() {
        if ("default".equals(sources.get(ConfigKey.BUFFER_OTHERS_CHECK)) && !"default".equals(sources.get(ConfigKey.BUFFER_EXCLUSIVE))) {
            return bool(ConfigKey.BUFFER_EXCLUSIVE);
        }
        return "flush".equals(text(ConfigKey.BUFFER_OTHERS_CHECK));
    }

    /** {@code spool.buffer.create=flush}: new files are created by the flush, not at the call. */
    public boolean bufferCreateAtFlush() { return "flush".equals(text(ConfigKey.BUFFER_CREATE)); }
    public boolean eventsJul() { return bool(ConfigKey.EVENTS_JUL); }
    public boolean eventsLogback() { return bool(ConfigKey.EVENTS_LOGBACK); }
    /** Routed logs whose format Spool reproduces: capture at the call, format on a writer thread (issue 13). */
    public boolean eventsCapture() { return bool(ConfigKey.EVENTS_CAPTURE); }
    public int eventsCaptureThreads() { return (int) number(ConfigKey.EVENTS_CAPTURE_THREADS); }
    /** Entries of the form {@code com.acme.Sim#emit}. */
    public List<String> eventsMethods() { return list(ConfigKey.EVENTS_METHODS); }
    /** {@code route} or {@code tee}. */
    public String eventsMethodsMode() { return text(ConfigKey.EVENTS_METHODS_MODE); }
    public Path eventsFile() { return Path.of(text(ConfigKey.EVENTS_FILE)); }
    /**
     * {@code bounded} (log handlers' bytes go through the sink and reach the file at most
     * {@link #eventsVisibilityMaxMillis()} later) or {@code exact} (they reach the file before the
     * handler's call returns, as without the agent: log handlers are not routed).
     */
    public String eventsVisibility() { return text(ConfigKey.EVENTS_VISIBILITY); }
    public long eventsVisibilityMaxMillis() { return number(ConfigKey.EVENTS_VISIBILITY_MAX_MS); }
    /** {@code file} or {@code mmap}. */
    public String sinkType() { return text(ConfigKey.SINK_TYPE); }
    public int sinkBufferBytes() { return (int) number(ConfigKey.SINK_BUFFER_BYTES); }
    public int sinkBuffers() { return (int) number(ConfigKey.SINK_BUFFERS); }
    public int sinkDirectThreshold() { return (int) number(ConfigKey.SINK_DIRECT_THRESHOLD); }
    public int sinkRecordMax() { return (int) number(ConfigKey.SINK_RECORD_MAX); }
    /** {@code block}, {@code drop} or {@code sync}. */
    public String sinkPolicy() { return text(ConfigKey.SINK_POLICY); }
    public long sinkMaxBytesPerSecond() { return number(ConfigKey.SINK_MAX_BYTES_PER_SECOND); }
    public long sinkWaitMillis() { return number(ConfigKey.SINK_WAIT_MILLIS); }
    /** {@code spool.sink.journal}: event files' sinks journal their buffers (issue 33). */
    public boolean sinkJournal() { return bool(ConfigKey.SINK_JOURNAL); }
    /** {@code spool.sink.journal.hostBytes}: Logback appenders Spool does not defer journal their bytes too (issue 33). */
    public boolean sinkJournalHostBytes() { return bool(ConfigKey.SINK_JOURNAL_HOST_BYTES); }
    /** {@code spool.sink.threads}: the writer threads every sink shares; 0 = a writer thread per sink. */
    public int sinkThreads() { return (int) number(ConfigKey.SINK_THREADS); }
    public boolean jmxEnabled() { return bool(ConfigKey.JMX_ENABLED); }
    public boolean jfrEnabled() { return bool(ConfigKey.JFR_ENABLED); }
    /** The configuration file named by {@code spool.config}, or empty text for none. */
    public String configFile() { return text(ConfigKey.CONFIG_FILE); }

    /**
     * The Kafka shipper's settings with the {@code spool.kafka.} prefix removed: the passed-through
     * producer settings, {@code topic}, {@code close.timeout}, and {@code bootstrap.servers} when set
     * (none: shipping is off). Not in {@link #asMap()}: passed-through values may hold credentials.
     */
    public Map<String, String> kafkaSettings() {
        Map<String, String> out = new LinkedHashMap<>(kafkaPassThrough);
        if (!kafkaBootstrapServers().isEmpty()) {
            out.put("bootstrap.servers", kafkaBootstrapServers());
        }
        out.put("topic", text(ConfigKey.KAFKA_TOPIC));
        out.put("close.timeout", String.valueOf(number(ConfigKey.KAFKA_CLOSE_TIMEOUT)));
        return out;
    }

    /** {@code spool.kafka.bootstrap.servers}; empty when shipping is off. */
    public String kafkaBootstrapServers() { return text(ConfigKey.KAFKA_BOOTSTRAP_SERVERS); }

    @Override
    public String toString() {
        return "SpoolConfig" + asMap();
    }
}
