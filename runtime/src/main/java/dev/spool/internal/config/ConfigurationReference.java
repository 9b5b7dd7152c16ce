package dev.spool.internal.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code docs/CONFIGURATION.md}, the reference of every configuration key, from
 * {@link ConfigKey}'s own data (name, accepted values, default, description), so the reference
 * cannot drift from the code: {@code ConfigurationReferenceTest} fails when the file in the
 * repository differs from {@link #markdown()}.
 *
 * <p>Regenerate from the repository root:
 * <pre>{@code
 * mvn -B -q -pl runtime -am compile && java -cp runtime/target/classes dev.spool.internal.config.ConfigurationReference docs/CONFIGURATION.md
 * }</pre>
 */
public final class ConfigurationReference {

    /** How to regenerate, for the test's failure message. */
    public static final String REGENERATE = "mvn -B -q -pl runtime -am compile && java -cp runtime/target/classes "
            + ConfigurationReference.class.getName() + " docs/CONFIGURATION.md";

    private ConfigurationReference() {}

    /** Writes the reference to the file named by {@code args[0]}, or prints it when none is named. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(markdown());
        } else {
            Files.writeString(Path.of(args[0]), markdown(), StandardCharsets.UTF_8);
        }
    }

    /** The whole of docs/CONFIGURATION.md. */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Configuration reference\n\n")
                .append("<!-- Generated from runtime/src/main/java/dev/spool/internal/config/ConfigKey.java by\n")
                .append("     ").append(REGENERATE).append("\n")
                .append("     Do not edit by hand: ConfigurationReferenceTest fails when this file differs. -->\n\n")
                .append("Sources, highest precedence first:\n\n")
                .append("1. agent arguments: `-javaagent:spool-agent.jar=key=value,key=value` (items of a list value\n")
                .append("   separated by `;`; the `spool.` prefix may be left out);\n")
                .append("2. system properties: `-Dspool.buffer.capacity=500`;\n")
                .append("3. environment variables: the key in capitals, dots as underscores (`SPOOL_BUFFER_CAPACITY=500`);\n")
                .append("4. a properties file named by `spool.config`.\n\n")
                .append("An unknown key or a bad value is reported in one `[spool]` line naming the key, the value,\n")
                .append("where it came from and what is accepted; the default is used and the application runs on.\n")
                .append("Byte sizes accept the binary suffixes `k`, `m`, `g`. The effective configuration is the\n")
                .append("`Configuration` attribute of the `dev.spool:type=Agent` MBean and part of `status --json`.\n\n")
                .append("| key | default | accepts | meaning |\n")
                .append("|---|---|---|---|\n");
        for (ConfigKey k : ConfigKey.values()) {
            md.append("| `").append(k.key()).append("` | ")
                    .append(defaultCell(k)).append(" | ")
                    .append(cell(k.accepted())).append(" | ")
                    .append(cell(k.description())).append(" |\n");
        }
        md.append("\n## Kafka producer settings\n\n")
                .append("Every other `").append(ConfigKey.KAFKA_PREFIX).append("<producer key>` is passed to the Kafka producer\n")
                .append("(`spool.kafka.compression.type=zstd`, `spool.kafka.security.protocol=SASL_SSL`; as an environment\n")
                .append("variable `SPOOL_KAFKA_COMPRESSION_TYPE=zstd`). Spool's defaults: `acks=all`, idempotence on.\n")
                .append("Two more are the shipper's own: `spool.kafka.jar` (where `spool-kafka.jar` is; default: beside\n")
                .append("`spool-agent.jar`) and `spool.kafka.log.client` (`true` prints the Kafka client's warnings as\n")
                .append("`[spool] kafka client:` lines). Passed-through values are not shown in `Configuration`: they may\n")
                .append("hold credentials.\n");
        md.append("\n## Diagnostic switches\n\n")
                .append("System properties read by their own code for diagnosis and measurement, not settings (the\n")
                .append("configuration neither reads nor warns about them):");
        ConfigKey.DIAGNOSTIC_PROPERTIES.stream().sorted().forEach(p -> md.append(" `").append(p).append('`'));
        md.append(".\n");
        return md.toString();
    }

    private static String defaultCell(ConfigKey k) {
        String d = k.documentedDefault();
        if (d.isEmpty()) {
            return "(none)";
        }
        return d.equals(k.defaultText()) ? "`" + d + "`" : cell(d);
    }

    /** Markdown table cell text: a '|' would end the cell, a line break the row. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
