package dev.spool.agent.reliability;

import dev.spool.agent.it.Forked;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spool opens no network port of its own: a host running the agent (MBeans on, JMX remote off)
 * owns no listening TCP socket (its socket fds matched against /proc/net/tcp and tcp6 entries in
 * state LISTEN). A positive control with JMX remote on shows the probe does find a listener.
 */
class NoListeningPortIT {
    @TempDir
    Path dir;

    @Test
    void shouldOpenNoListeningSocketWithTheAgent() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs Linux /proc");
        assertEquals(List.of(), listenersOf(List.of("-javaagent:" + Forked.agentJar())),
                "listening sockets owned by a host with the agent");
        assertFalse(listenersOf(List.of("-javaagent:" + Forked.agentJar(), "-Dcom.sun.management.jmxremote.port=0",
                "-Dcom.sun.management.jmxremote.authenticate=false", "-Dcom.sun.management.jmxremote.ssl=false")).isEmpty(),
                "control: the probe must see the JMX remote connector's port");
    }

    private List<String> listenersOf(List<String> jvmArgs) throws Exception {
        Path d = Files.createTempDirectory(dir, "host");
        Forked host = Forked.start(d, "host", jvmArgs, Forked.hostClassPath(Forked.jackson()),
                "dev.spool.agent.host.JsonHost", d.resolve("data").toString(), "3", "3", "hold");
        try {
            host.awaitLines("written", 1);
            Set<String> listening = new HashSet<>();
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path t = Path.of(table);
                if (!Files.exists(t)) continue;
                for (String line : Files.readAllLines(t)) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[3].equals("0A")) listening.add(f[9] + " " + f[1]);
                }
            }
            List<String> owned = new ArrayList<>();
            try (Stream<Path> fds = Files.list(Path.of("/proc/" + host.process.pid() + "/fd"))) {
                for (Path fd : fds.toList()) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (Exception gone) {
                        continue;
                    }
                    if (!target.startsWith("socket:[")) continue;
                    String inode = target.substring(8, target.length() - 1);
                    for (String l : listening) if (l.startsWith(inode + " ")) owned.add(l);
                }
            }
            return owned;
        } finally {
            host.process.destroyForcibly();
            host.process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
