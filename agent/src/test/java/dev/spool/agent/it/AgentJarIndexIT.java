package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The built agent jar's start-up index ({@code inst/spool-index/*.classes}, read by premain's boot
 * bridge and the warm-up instead of enumerating the jar) lists exactly the classes the jar holds
 * for each: a pom change that drops or adds a package on one side only fails here, rather than
 * leaving a bridge class undefined (the agent would not install) or a runtime class cold. And the
 * jar ships only the part of byte-buddy Spool uses (its ASM), whose other classes tripled the
 * directory every start reads.
 */
class AgentJarIndexIT {

    @Test
    void shouldListInTheIndexExactlyTheBridgeClassesTheJarHolds() throws Exception {
        assertIndexIsTheJars("inst/spool-index/bridge.classes", "dev/spool/bridge/Hooks.class",
                n -> n.matches("dev/spool/bridge/[^/]+\\.class") && !n.endsWith("package-info.class"));
    }

    @Test
    void shouldListInTheIndexExactlyTheRuntimeClassesTheWarmupLoads() throws Exception {
        assertIndexIsTheJars("inst/spool-index/warmup.classes", "dev/spool/buffer/SharedBuffer.class",
                n -> n.matches("dev/spool/(buffer|sink|events)/.+\\.class") && !n.endsWith("package-info.class"));
    }

    @Test
    void shouldShipOfByteBuddyOnlyItsAsm() throws Exception {
        String shaded = "inst/dev/spool/shaded/net/bytebuddy/";
        try (JarFile jar = new JarFile(Forked.agentJar(), false)) {
            List<String> classes = jar.stream().map(JarEntry::getName)
                    .filter(n -> n.startsWith(shaded) && n.endsWith(".classdata")).toList();
            assertTrue(classes.contains(shaded + "jar/asm/ClassWriter.classdata"), "the weaver's ASM is shipped");
            assertEquals(List.of(), classes.stream().filter(n -> !n.startsWith(shaded + "jar/asm/")).toList(),
                    "byte-buddy classes other than its ASM");
        }
    }

    /** Compares the index with the jar's classes (hidden ones as {@code inst/<name>.classdata}) that {@code wanted} accepts. */
    private static void assertIndexIsTheJars(String index, String expected, Predicate<String> wanted) throws Exception {
        try (JarFile jar = new JarFile(Forked.agentJar(), false)) {
            JarEntry listed = jar.getJarEntry(index);
            assertNotNull(listed, "the build wrote no " + index + " into " + jar.getName());
            String text;
            try (InputStream in = jar.getInputStream(listed)) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
            TreeSet<String> inJar = new TreeSet<>();
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                String n = e.nextElement().getName();
                String original = n.startsWith("inst/") && n.endsWith(".classdata")
                        ? n.substring("inst/".length(), n.length() - "data".length()) : n;
                if (wanted.test(original)) {
                    inJar.add(original);
                }
            }
            assertTrue(inJar.contains(expected), "the jar holds " + expected);
            assertEquals(lines.size(), new TreeSet<>(lines).size(), "no class listed twice");
            assertEquals(inJar, new TreeSet<>(lines), index + " against the jar's entries");
        }
    }
}
