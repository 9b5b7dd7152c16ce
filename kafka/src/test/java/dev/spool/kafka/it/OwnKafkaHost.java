package dev.spool.kafka.it;

import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * A host with its own kafka-clients (another version than Spool's, on its class path): it
 * produces {@code n} records of its own and emits {@code n} events Spool ships, in one JVM.
 * Prints {@code host kafka <version>} and {@code sent <n>}.
 */
public final class OwnKafkaHost {
    private OwnKafkaHost() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        int n = Integer.parseInt(args[2]);
        System.out.println("host kafka " + AppInfoParser.getVersion());
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, "own-" + i, "own record " + i)).get();
                ShipHost.emit(Map.of("i", i, "text", "event number " + i));
            }
        }
        System.out.println("sent " + n);
    }
}
