package dev.spool.agent.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentJarIndexTest {

    @TempDir
    Path dir;

    @Test
    void shouldFindTheBridgeAndWarmupClassesByEnumeratingAJarWithoutAnIndex() throws Exception {
        try (JarFile jar = jar(null)) {
            assertEquals(List.of("dev.spool.bridge.Hooks", "dev.spool.bridge.SpoolHooks"),
                    AgentJarIndex.classes(jar, AgentJarIndex.BRIDGE, BootBridge::bridgeClassOf));
            assertEquals(List.of("dev.spool.buffer.SharedBuffer", "dev.spool.sink.ByteSink"),
                    AgentJarIndex.classes(jar, AgentJarIndex.WARMUP, Warmup::runtimeClassOf));
        }
    }

    @Test
    void shouldTakeTheListFromTheIndexWithoutLookingAtTheOtherEntries() throws Exception {
        // the index names only one of the bridge classes: its answer, not the enumeration's, comes back
        try (JarFile jar = jar("dev/spool/bridge/Hooks.class\n\n")) {
            assertEquals(List.of("dev.spool.bridge.Hooks"),
                    AgentJarIndex.classes(jar, AgentJarIndex.BRIDGE, BootBridge::bridgeClassOf));
        }
    }

    private JarFile jar(String bridgeIndex) throws Exception {
        Path file = dir.resolve(bridgeIndex == null ? "plain.jar" : "indexed.jar");
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out)) {
            for (String name : List.of("dev/spool/bridge/Hooks.class", "dev/spool/bridge/package-info.class",
                    "dev/spool/bridge/inner/Other.class", "dev/spool/bridge/SpoolHooks.class",
                    "inst/dev/spool/buffer/SharedBuffer.classdata", "inst/dev/spool/buffer/package-info.classdata",
                    "inst/dev/spool/agent/internal/Warmup.classdata", "inst/dev/spool/sink/ByteSink.classdata")) {
                jar.putNextEntry(new JarEntry(name));
                jar.closeEntry();
            }
            if (bridgeIndex != null) {
                jar.putNextEntry(new JarEntry(AgentJarIndex.BRIDGE));
                jar.write(bridgeIndex.getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
        }
        return new JarFile(file.toFile(), false);
    }
}
