package dev.spool.agent.kafka;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Finds {@code spool-kafka.jar} (the Kafka shipper with kafka-clients inside) and opens it in a
 * class loader of its own, child of Spool's isolated loader: it sees Spool's runtime and the JDK,
 * never the host's classes, so a host with its own kafka-clients (any version) does not clash, and
 * the Kafka client's SLF4J is its own. Nothing here runs unless shipping is configured or the
 * {@code ship} command runs: without them no Kafka class is ever loaded.
 *
 * <p>Where the jar is: {@code spool.kafka.jar} when set, else {@value #JAR_NAME} in the folder of
 * the agent jar.
 */
public final class KafkaJar {
    public static final String JAR_NAME = "spool-kafka.jar";

    private KafkaJar() {
    }

    /** The jar to load: {@code configured} when not empty, else beside the agent jar. */
    public static File locate(String configured) {
        if (configured != null && !configured.isBlank()) {
            return new File(configured.trim());
        }
        File agent = agentJar();
        File dir = agent == null ? new File(".") : agent.getAbsoluteFile().getParentFile();
        return new File(dir, JAR_NAME);
    }

    /** The agent jar (or classes folder) this class was loaded from, or null. */
    static File agentJar() {
        try {
            return new File(KafkaJar.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            return null;
        }
    }

    /** A loader over {@code jar}, child of Spool's loader. @throws IOException naming the jar when it is missing */
    public static ClassLoader open(File jar) throws IOException {
        if (!jar.isFile()) {
            throw new IOException(jar.getAbsolutePath() + " not found: put " + JAR_NAME
                    + " beside spool-agent.jar, or name it with spool.kafka.jar");
        }
        URL url = jar.getAbsoluteFile().toURI().toURL();
        return new URLClassLoader("spool-kafka", new URL[] {url}, KafkaJar.class.getClassLoader());
    }
}
