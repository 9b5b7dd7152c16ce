package dev.spool.kafka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spool's Kafka never meets the host's: a host producing with its own, older kafka-clients
 * while the agent ships its events; and without {@code spool.kafka.bootstrap.servers} not one
 * Kafka class (nor Spool's shipper) is loaded.
 */
class IsolationIT {
    static Broker broker;

    @BeforeAll
    static void broker() throws Exception {
        broker = Broker.shared();
    }

    private static String hostLib(String name) {
        return Path.of(System.getProperty("spool.it.hostLibs"), name).toString();
    }

    @Test
    void shouldShipBesideAHostsOwnDifferentKafkaClients(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        String cp = hostLib("kafka-clients.jar") + File.pathSeparator + hostLib("slf4j-api.jar");
        List<String> cmd = List.of("-javaagent:" + Host.deploy(dir) + "=" + ShippingIT.agentOptions(events, "iso-events",
                "spool.kafka.close.timeout=60000"), "-cp", System.getProperty("spool.it.hostClasses") + File.pathSeparator + cp,
                OwnKafkaHost.class.getName(), broker.bootstrap(), "iso-own", "200");
        try (Host host = Host.java(dir, "host", cmd)) {
            assertEquals(0, host.await(180), host.describe());
            assertTrue(host.out().contains("host kafka " + System.getProperty("spool.it.hostKafkaVersion")), host.describe());
            assertTrue(host.out().contains("sent 200"), host.describe());
        }
        assertEquals(200, Topic.read(broker.bootstrap(), "iso-own", 200).size());
        List<Topic.Rec> shipped = Topic.read(broker.bootstrap(), "iso-events", 200);
        assertEquals(200, shipped.size());
        assertEquals(ShippingIT.catLines(dir, events), shipped.stream().map(Topic.Rec::value).toList());
    }

    @Test
    void shouldLoadNoKafkaClassUnlessShippingIsConfigured(@TempDir Path dir) throws Exception {
        Path events = dir.resolve("events.spool");
        Path off = dir.resolve("off-classes.log");
        String options = "spool.events.methods=" + ShipHost.class.getName() + "#emit,spool.events.file=" + events;
        try (Host host = Host.ship(dir, "off", options, List.of("-Xlog:class+load=info:file=" + off), null, "100", "0")) {
            assertEquals(0, host.await(120), host.describe());
        }
        String offClasses = Files.readString(off);
        assertTrue(offClasses.contains("dev.spool.events.EventLog"), "the log names the agent's classes");
        assertFalse(offClasses.contains("org.apache.kafka"), "a Kafka class was loaded with shipping off");
        assertFalse(offClasses.lines().anyMatch(l -> l.matches(".*dev\\.spool\\.(agent\\.)?kafka\\.(?!it\\.).*")),
                "the shipper was loaded with shipping off");

        // the same host with shipping on: the log would show them
        Path on = dir.resolve("on-classes.log");
        try (Host host = Host.ship(dir, "on", ShippingIT.agentOptions(events, "iso-on", "spool.kafka.close.timeout=60000"),
                List.of("-Xlog:class+load=info:file=" + on), null, "100", "0")) {
            assertEquals(0, host.await(120), host.describe());
        }
        String onClasses = Files.readString(on);
        assertTrue(onClasses.contains("org.apache.kafka.clients.producer.KafkaProducer"), "shipping on loads Kafka");
        assertTrue(onClasses.lines().filter(l -> l.contains("org.apache.kafka.clients.producer.KafkaProducer "))
                .allMatch(l -> l.contains("spool-kafka.jar")), "from spool-kafka.jar");
    }
}
