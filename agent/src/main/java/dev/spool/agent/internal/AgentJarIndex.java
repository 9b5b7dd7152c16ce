package dev.spool.agent.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The class lists that start-up needs from the agent jar, written by the build (agent/pom.xml,
 * "Index") as {@code inst/spool-index/*.classes}: one original entry name a line, e.g.
 * {@code dev/spool/bridge/Hooks.class}. Reading one small entry replaces enumerating the jar's
 * ~5,000 entries, which cost premain (the boot bridge) and the warm-up thread tens of milliseconds
 * of cold code each (issue 12 item 7). A jar without the index (built some other way) is
 * enumerated as before, so the answer is the same either way; {@code AgentJarIndexIT} checks the
 * built jar's index against its enumeration.
 *
 * <p>Stateless and thread-safe.
 * <pre>{@code
 * List<String> names = AgentJarIndex.classes(jar, AgentJarIndex.BRIDGE, BootBridge::bridgeClassOf);
 * }</pre>
 */
final class AgentJarIndex {

    /** The boot bridge's classes ({@code dev/spool/bridge/*}, no sub-packages, no package-info). */
    static final String BRIDGE = "inst/spool-index/bridge.classes";
    /** The runtime classes {@link Warmup} loads ({@code dev/spool/buffer|sink|events/**}, no package-info). */
    static final String WARMUP = "inst/spool-index/warmup.classes";

    private static final String CLASS_SUFFIX = ".class";

    private AgentJarIndex() {}

    /**
     * The binary names of the classes {@code index} lists in {@code jar}; without that entry, the
     * names {@code fromEntry} gives for the jar's entries (null: not one of them), in jar order.
     */
    static List<String> classes(JarFile jar, String index, Function<String, String> fromEntry) throws IOException {
        JarEntry listed = jar.getJarEntry(index);
        List<String> names = new ArrayList<>();
        if (listed != null) {
            String text;
            try (InputStream in = jar.getInputStream(listed)) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            for (String line : text.split("\n")) {
                String entry = line.trim();
                if (entry.endsWith(CLASS_SUFFIX)) {
                    names.add(entry.substring(0, entry.length() - CLASS_SUFFIX.length()).replace('/', '.'));
                }
            }
            return names;
        }
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            String name = fromEntry.apply(e.nextElement().getName());
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }
}
