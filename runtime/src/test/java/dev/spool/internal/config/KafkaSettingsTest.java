package dev.spool.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spool.kafka.*}: Spool's own keys, and every other one passed through to the producer. */
class KafkaSettingsTest {
    private final List<String> problems = new ArrayList<>();

    @Test
    void shouldBeOffWithTheSpecDefaultsWhenNothingIsSet() {
        SpoolConfig cfg = SpoolConfig.load(null, Map.of(), Map.of(), problems::add);
        assertEquals("", cfg.kafkaBootstrapServers());
        assertEquals(Map.of("topic", "spool-events", "close.timeout", "5000"), cfg.kafkaSettings());
        assertEquals(List.of(), problems);
    }

    @Test
    void shouldPassProducerKeysThroughFromEverySourceByPrecedenceWithoutReportingThem() {
        SpoolConfig cfg = SpoolConfig.load(
                "spool.kafka.bootstrap.servers=b1:9092;b2:9092,kafka.compression.type=zstd",
                Map.of("spool.kafka.compression.type", "lz4", "spool.kafka.linger.ms", "20"),
                Map.of("SPOOL_KAFKA_SASL_MECHANISM", "PLAIN", "SPOOL_KAFKA_TOPIC", "audit"), problems::add);
        assertEquals(List.of(), problems, "producer keys are not unknown Spool keys");
        Map<String, String> k = cfg.kafkaSettings();
        assertEquals("b1:9092;b2:9092", k.get("bootstrap.servers"));
        assertEquals("zstd", k.get("compression.type"), "agent arguments over system properties");
        assertEquals("20", k.get("linger.ms"));
        assertEquals("PLAIN", k.get("sasl.mechanism"), "SPOOL_KAFKA_SASL_MECHANISM is sasl.mechanism");
        assertEquals("audit", k.get("topic"));
        assertFalse(cfg.asMap().containsKey("spool.kafka.sasl.mechanism"), "passed-through values may be secrets");
        assertTrue(cfg.asMap().containsKey("spool.kafka.bootstrap.servers"));
    }

    @Test
    void shouldRefuseABadCloseTimeoutInOneLineAndKeepTheDefault() {
        SpoolConfig cfg = SpoolConfig.load("spool.kafka.close.timeout=soon", Map.of(), Map.of(), problems::add);
        assertEquals("5000", cfg.kafkaSettings().get("close.timeout"));
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("spool.kafka.close.timeout"), problems.get(0));
    }
}
