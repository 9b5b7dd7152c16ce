package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spool.buffer.others.check} (older name {@code spool.buffer.exclusive}) under the agent: a
 * file written by another process while the host's Jackson writes of it are buffered is never
 * overwritten, by default (checked at the flush: a conflict, the disk keeps the foreign write, the
 * host's content is kept beside it) or with {@code call} (checked at each call: the host's later
 * write re-bases on the foreign one and wins); the Buffer bean shows the choice; a wrong value is
 * reported naming the key and the default is used.
 */
class ExclusiveIT {

    @TempDir
    Path root;

    private static final String FOREIGN = "{\"theirs\":true}";

    @Test
    void shouldEndAForeignWriteWhileBufferedAsAConflictWithNothingLostByDefaultAndShowTheSwitch() throws Exception {
        Path dir = root.resolve("default");
        try (Forked host = start(dir, "spool.buffer.flush.interval=0")) {
            host.awaitOutput("buffered");
            try (JMXConnector jmx = host.connectJmx()) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName buffer = new ObjectName("dev.spool:type=Buffer");
                Forked.awaitCondition(() -> Forked.registered(server, buffer));
                assertEquals(Boolean.TRUE, server.getAttribute(buffer, "Exclusive"));
                assertEquals("flush", server.getAttribute(buffer, "OthersCheck"));
            }
            Files.writeString(dir.resolve("doc.json"), FOREIGN); // another writer, while step 1 is buffered
            host.closeInput();
            String out = host.awaitSuccess();
            assertTrue(out.contains("read step=2"), "the host reads its own last write back: " + out);
        }
        assertEquals(FOREIGN, Files.readString(dir.resolve("doc.json")), "the disk keeps the foreign write");
        List<Path> conflicts = conflictFiles(dir);
        assertEquals(1, conflicts.size(), "the host's last write is kept beside it: " + conflicts);
        assertTrue(Files.readString(conflicts.get(0)).startsWith("{\"step\":2,"), Files.readString(conflicts.get(0)));
    }

    @Test
    void shouldNameTheKeyOfAWrongValueAndLetTheLastWriteWinWhenOthersAreCheckedAtTheCall() throws Exception {
        Path dir = root.resolve("call");
        Forked host = start(dir, "spool.buffer.flush.interval=0,spool.buffer.exclusive=sometimes,spool.buffer.others.check=call");
        try (host) {
            host.awaitOutput("buffered");
            Files.writeString(dir.resolve("doc.json"), FOREIGN);
            host.closeInput();
            host.awaitSuccess();
        }
        List<String> spool = Trees.spoolLines(host.err());
        assertTrue(spool.stream().anyMatch(l -> l.contains("spool.buffer.exclusive=sometimes") && l.contains("default true")),
                "one [spool] line names the key: " + spool);
        assertTrue(Files.readString(dir.resolve("doc.json")).startsWith("{\"step\":2,"), "the host's later write wins");
        assertEquals(List.of(), conflictFiles(dir));
    }

    private Forked start(Path dir, String options) throws Exception {
        return Forked.start(root, dir.getFileName().toString(), Forked.agentArgs(options),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.ForeignWriteHost", dir.toString());
    }

    private static List<Path> conflictFiles(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().contains(".spool-conflict-")).toList();
        }
    }

}
