package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting the agent: hosts without Jackson or Logback, JUL woven as it loads, the master switch, and a jar whose boot bridge is missing. */
class StartupIT {

    @TempDir
    Path root;

    @Test
    void shouldRunAHostWithoutJacksonOrLogbackSilently() throws Exception {
        Forked host = Forked.start(root, "host", Forked.agentArgs(null), Forked.hostClassPath(),
                "dev.spool.agent.host.PlainHost", root.resolve("hello.txt").toString());
        assertEquals("hello", host.awaitSuccess().trim());
        assertEquals(List.of(), Trees.spoolLines(host.err()));
    }

    /**
     * Premain itself loads JUL's FileHandler (verifying the agent's JUL capture classes): the
     * transformer must be in place by then, so the class is woven as it loads. Retransformed
     * instead (before 22:10 UTC, 30 Nov), Java 17's {@code publish} kept its {@code synchronized}
     * and every captured record was taken under the handler's lock (issue 13's design moves it
     * after the hook). Java 25 declares no lock on {@code publish}: there it holds trivially.
     */
    @Test
    void shouldWeaveJulsFileHandlerAsItLoads_soPublishNoLongerHoldsItsLockForTheCapture() throws Exception {
        Forked host = Forked.start(root, "host", Forked.agentArgs(null), Forked.hostClassPath(),
                "dev.spool.agent.host.JulWeavingHost");
        assertEquals("publish synchronized=false", host.awaitSuccess().trim(), host.describe());
    }

    @Test
    void shouldInstallNothing_whenDisabled() throws Exception {
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path routed = Files.createDirectories(root.resolve("agent"));
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.JulHost",
                plain.resolve("app%g.log").toString(), "500", "0", "1").awaitSuccess();
        Forked host = Forked.start(root, "agent", LogRouteIT.concat(Forked.agentArgs("spool.log.level=debug"),
                "-Dspool.enabled=false"), Forked.hostClassPath(), "dev.spool.agent.host.JulHost",
                routed.resolve("app%g.log").toString(), "500", "0", "1");
        host.awaitSuccess();
        assertTrue(host.err().contains("nothing installed"), host.describe());
        assertTrue(!host.err().contains("Sharing is only supported"), "the boot class path was not touched");
        Trees.assertSameFiles(plain, routed);
    }

    @Test
    void shouldRunUninstrumented_whenTheBootBridgeIsMissingFromTheJar() throws Exception {
        Path broken = root.resolve("spool-agent-without-bridge.jar");
        copyWithout(Path.of(Forked.agentJar()), broken, "dev/spool/bridge/");
        Path plain = Files.createDirectories(root.resolve("plain"));
        Path routed = Files.createDirectories(root.resolve("agent"));
        Forked.start(root, "plain", List.of(), Forked.hostClassPath(), "dev.spool.agent.host.JulHost",
                plain.resolve("app%g.log").toString(), "500", "0", "1").awaitSuccess();
        Forked host = Forked.start(root, "agent", List.of("-javaagent:" + broken), Forked.hostClassPath(),
                "dev.spool.agent.host.JulHost", routed.resolve("app%g.log").toString(), "500", "0", "1");
        host.awaitSuccess(); // no NoClassDefFoundError from inside FileHandler
        List<String> lines = Trees.spoolLines(host.err());
        assertEquals(1, lines.size(), host.describe());
        assertTrue(lines.get(0).contains("boot bridge"), lines.get(0));
        Trees.assertSameFiles(plain, routed);
    }

    private static void copyWithout(Path from, Path to, String prefix) throws IOException {
        try (ZipFile in = new ZipFile(from.toFile()); OutputStream file = Files.newOutputStream(to);
             ZipOutputStream out = new ZipOutputStream(file)) {
            Enumeration<? extends ZipEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().startsWith(prefix)) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                try (InputStream data = in.getInputStream(e)) {
                    data.transferTo(out);
                }
                out.closeEntry();
            }
        }
    }
}
