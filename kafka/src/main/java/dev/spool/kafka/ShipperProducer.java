package dev.spool.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.spool.events.EventTail;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Utils;

/**
 * The Kafka producer of one {@link FileShipper} and the form of the records it sends: made when there
 * is something to send, with the partition its stream id hashes to (one partition per stream, so Kafka
 * keeps the file's order); each record's value is the event as JSON, its key the text the shipper gives
 * ({@code <stream>:<ordinal>}), its headers {@code host}, {@code pid} and {@code file}. Closed by the
 * shipper after a failure or a cut, at its end within what is left of the exit drain, and by a stop.
 *
 * <p>Threads: the shipper thread makes it, sends and closes it; any thread reads {@link #current()}
 * (the Shipper bean) and may close it through {@link #closeUnderSender()} (a stop). The producer is held
 * in a volatile field.
 */
final class ShipperProducer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ShipperSettings settings;
    private final String clientId;
    private final String host;
    private final byte[] pid;
    private final Path file;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private int partition; // shipper thread only

    ShipperProducer(ShipperSettings settings, String clientId, String host, Path file) {
        this.settings = settings;
        this.clientId = clientId;
        this.host = host;
        this.file = file;
        this.pid = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8);
    }

    /** The producer, or null while there is none (not yet made, or closed after a failure). Any thread. */
    KafkaProducer<byte[], byte[]> current() {
        return producer;
    }

    /** Makes the producer; a RuntimeException when the settings make none (then there is still none). */
    void start() {
        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(settings.producerProperties(clientId));
        producer = p;
    }

    /** Asks Kafka for the topic's partitions and chooses the one {@code stream} hashes to; a RuntimeException when it cannot. */
    void choosePartition(String stream) {
        int n = producer.partitionsFor(settings.topic).size();
        partition = Utils.toPositive(Utils.murmur2(stream.getBytes(StandardCharsets.UTF_8))) % n;
    }

    /** The record's value: its event as JSON. */
    byte[] value(EventTail.Tailed t) throws IOException {
        return JSON.writeValueAsBytes(t.record().value());
    }

    /** Sends one record to the stream's partition, its key {@code keyText}; {@code done} hears the broker's answer. */
    void send(EventTail.Tailed t, String keyText, byte[] value, Callback done) {
        byte[] key = keyText.getBytes(StandardCharsets.UTF_8);
        RecordHeaders headers = new RecordHeaders();
        headers.add("host", host.getBytes(StandardCharsets.UTF_8));
        headers.add("pid", pid);
        headers.add("file", file.toString().getBytes(StandardCharsets.UTF_8));
        producer.send(new ProducerRecord<>(settings.topic, partition, t.record().timestampMillis(), key, value,
                headers), done);
    }

    /** Closes the producer, waiting at most {@code wait}, and forgets it (a failure, a cut, the end). Shipper thread. */
    void close(Duration wait) {
        KafkaProducer<byte[], byte[]> p = producer;
        producer = null;
        if (p != null) {
            try {
                p.close(wait);
            } catch (RuntimeException ignored) {
                // closing a failed producer, or at the end
            }
        }
    }

    /** A stop (any thread): closes the producer without waiting, which unblocks a send waiting for metadata. */
    void closeUnderSender() {
        KafkaProducer<byte[], byte[]> p = producer;
        if (p != null) {
            try {
                p.close(Duration.ZERO); // unblocks a send waiting for metadata
            } catch (RuntimeException ignored) {
                // closing
            }
        }
    }
}
