package dev.spool.internal.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/** Reads the raw text of each configuration source into a map of dotted key to value. */
final class ConfigSources {
    private ConfigSources() {
    }

    /**
     * Parses agent arguments {@code key=value,key=value}. A comma inside braces (a glob such as
     * {@code **}{@code /{a,b}.json}) does not separate items. Items of a list value are separated
     * by {@code ;}. A key without the {@code spool.} prefix gets it.
     */
    static Map<String, String> parseAgentArgs(String args, Consumer<String> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        if (args == null || args.isBlank()) {
            return out;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= args.length(); i++) {
            char c = i < args.length() ? args.charAt(i) : ',';
            if (c == '{') {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (c == ',' && (depth == 0 || i == args.length())) {
                addItem(args.substring(start, i), out, problems);
                start = i + 1;
            }
        }
        return out;
    }

    private static void addItem(String item, Map<String, String> out, Consumer<String> problems) {
        if (item.isBlank()) {
            return;
        }
        int eq = item.indexOf('=');
        if (eq <= 0) {
            problems.accept("agent argument '" + Problems.show(item)
                    + "' is not of the form key=value; ignored");
            return;
        }
        String key = item.substring(0, eq).trim();
        out.put(key.startsWith("spool.") ? key : "spool." + key, item.substring(eq + 1));
    }

    /** The {@code spool.*} entries of a system-property map. */
    static Map<String, String> fromSystemProperties(Map<String, String> props) {
        Map<String, String> out = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith("spool.")) {
                out.put(k, v);
            }
        });
        return out;
    }

    /**
     * The {@code SPOOL_*} entries of an environment, translated to dotted keys. An unknown
     * {@code SPOOL_} variable is reported once and skipped.
     */
    static Map<String, String> fromEnvironment(Map<String, String> env, Consumer<String> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((name, v) -> {
            if (!name.startsWith("SPOOL_")) {
                return;
            }
            ConfigKey key = ConfigKey.byEnvName(name);
            if (key == null && name.startsWith("SPOOL_KAFKA_") && name.length() > "SPOOL_KAFKA_".length()) {
                // a Kafka producer setting: SPOOL_KAFKA_COMPRESSION_TYPE is spool.kafka.compression.type
                out.put(name.toLowerCase(java.util.Locale.ROOT).replace('_', '.'), v);
            } else if (key == null) {
                problems.accept("environment variable " + Problems.show(name)
                        + " is not a Spool setting; ignored (known: " + Problems.knownKeys() + ")");
            } else {
                out.put(key.key(), v);
            }
        });
        return out;
    }

    /**
     * The entries of a properties file, or an empty map with one problem line when the file
     * cannot be read. The file is read as UTF-8.
     */
    static Map<String, String> fromFile(Path file, Consumer<String> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        Properties props = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(r);
        } catch (IOException | IllegalArgumentException e) {
            problems.accept("configuration file " + file.toAbsolutePath() + " cannot be read ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); its settings are not applied");
            return out;
        }
        for (String name : props.stringPropertyNames()) {
            out.put(name.startsWith("spool.") ? name : "spool." + name, props.getProperty(name));
        }
        return out;
    }
}
