package dev.spool.kafka;

import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The shipper's settings, from the {@code spool.kafka.*} keys with that prefix removed:
 * {@code topic}, {@code close.timeout} (milliseconds the host's exit may wait for shipping to
 * catch up), {@code jar} (where spool-kafka.jar is; read by the agent) and
 * {@code log.client} (true prints the Kafka client's own warnings as {@code [spool]} lines); every
 * other key is a Kafka producer setting passed through as is ({@code bootstrap.servers},
 * {@code compression.type}, {@code security.protocol}, ...). Immutable.
 */
final class ShipperSettings {
    static final String DEFAULT_TOPIC = "spool-events";
    static final long DEFAULT_CLOSE_TIMEOUT_MILLIS = 5_000;
    /** Keys that configure Spool's shipper rather than the producer. */
    static final String TOPIC = "topic";
    static final String CLOSE_TIMEOUT = "close.timeout";
    static final String JAR = "jar";
    static final String LOG_CLIENT = "log.client";

    final String bootstrap;
    final String topic;
    final long closeTimeoutMillis;
    final boolean logClient;
    private final Map<String, String> producer;

    private ShipperSettings(String bootstrap, String topic, long closeTimeoutMillis, boolean logClient,
                            Map<String, String> producer) {
        this.bootstrap = bootstrap;
        this.topic = topic;
        this.closeTimeoutMillis = closeTimeoutMillis;
        this.logClient = logClient;
        this.producer = producer;
    }

    /**
     * @param keys {@code spool.kafka.*} settings without the prefix
     * @throws IllegalArgumentException naming the key, for a missing bootstrap, a bad topic or timeout
     */
    static ShipperSettings from(Map<String, String> keys) {
        Map<String, String> producer = new TreeMap<>(keys);
        String bootstrap = producer.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG);
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new IllegalArgumentException("spool.kafka.bootstrap.servers is not set");
        }
        // agent arguments separate their items with ',': several brokers are written a;b there
        bootstrap = bootstrap.replace(';', ',');
        producer.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        String topic = producer.remove(TOPIC);
        topic = topic == null || topic.isBlank() ? DEFAULT_TOPIC : topic.trim();
        if (!topic.matches("[a-zA-Z0-9._-]{1,249}")) {
            throw new IllegalArgumentException("spool.kafka.topic=" + topic
                    + " is not a Kafka topic name (letters, digits, '.', '_', '-'; at most 249)");
        }
        String close = producer.remove(CLOSE_TIMEOUT);
        long closeMillis = DEFAULT_CLOSE_TIMEOUT_MILLIS;
        if (close != null && !close.isBlank()) {
            try {
                closeMillis = Long.parseLong(close.trim());
            } catch (NumberFormatException e) {
                closeMillis = -1;
            }
            if (closeMillis < 0) {
                throw new IllegalArgumentException("spool.kafka.close.timeout=" + close + " is not a number of milliseconds (0 or more)");
            }
        }
        producer.remove(JAR);
        boolean logClient = Boolean.parseBoolean(String.valueOf(producer.remove(LOG_CLIENT)).trim().toLowerCase(Locale.ROOT));
        return new ShipperSettings(bootstrap.trim(), topic, closeMillis, logClient, producer);
    }

    /** The producer's properties: the passed-through keys over Spool's defaults; keys and values are always bytes. */
    Properties producerProperties(String clientId) {
        Properties p = new Properties();
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.putAll(producer);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return p;
    }

    @Override
    public String toString() {
        return "bootstrap " + bootstrap + ", topic " + topic;
    }
}
