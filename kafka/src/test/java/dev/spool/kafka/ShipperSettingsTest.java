package dev.spool.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ShipperSettingsTest {
    @Test
    void shouldDefaultToAcksAllAndIdempotenceAndPassEveryOtherKeyThrough() {
        ShipperSettings s = ShipperSettings.from(Map.of("bootstrap.servers", "a:1;b:2", "compression.type", "zstd",
                "topic", "audit", "close.timeout", "250", "jar", "/x/spool-kafka.jar", "log.client", "true"));
        Properties p = s.producerProperties("c1");
        assertEquals("all", p.get("acks"));
        assertEquals("true", p.get("enable.idempotence"));
        assertEquals("zstd", p.get("compression.type"));
        assertEquals("a:1,b:2", p.get("bootstrap.servers"), "';' from agent arguments becomes ','");
        assertEquals("c1", p.get("client.id"));
        assertFalse(p.containsKey("topic") || p.containsKey("close.timeout") || p.containsKey("jar")
                || p.containsKey("log.client"), "Spool's own keys are not producer settings: " + p);
        assertEquals("audit", s.topic);
        assertEquals(250, s.closeTimeoutMillis);
        assertTrue(s.logClient);
    }

    @Test
    void shouldLetTheUserOverrideAcksButNeverTheSerializers() {
        Properties p = ShipperSettings.from(Map.of("bootstrap.servers", "a:1", "acks", "1",
                "value.serializer", "x.Y")).producerProperties("c");
        assertEquals("1", p.get("acks"));
        assertEquals("org.apache.kafka.common.serialization.ByteArraySerializer", p.get("value.serializer"));
    }

    @Test
    void shouldRefuseAMissingBootstrapABadTopicAndABadTimeoutNamingTheKey() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ShipperSettings.from(Map.of("topic", "t")))
                .getMessage().contains("spool.kafka.bootstrap.servers"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ShipperSettings.from(Map.of("bootstrap.servers", "a:1", "topic", "no spaces")))
                .getMessage().contains("spool.kafka.topic"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> ShipperSettings.from(Map.of("bootstrap.servers", "a:1", "close.timeout", "-1")))
                .getMessage().contains("spool.kafka.close.timeout"));
        assertEquals("spool-events", ShipperSettings.from(Map.of("bootstrap.servers", "a:1")).topic);
    }
}
