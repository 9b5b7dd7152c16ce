package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JUL's "at the call" semantics under capture (issue 13, probes L-A, L-B, L-C, L-S, L-F, L-H):
 * a routed {@code FileHandler}'s record is checked ({@code isLoggable}) and formatted as of its
 * call, so a handler level, filter, formatter or default time zone changed after a burst, or a
 * record changed by a later handler, leaves the queued records as plain JUL wrote them; a handler
 * class with its own {@code isLoggable} (asked as of the call only by the host) is not captured.
 * {@code JulLateChangeHost} plain and under the agent, in forked JVMs: every probe's file byte
 * for byte.
 */
class JulLateChangeIT {

    private static final int RECORDS = 3_000;
    private static final List<String> PROBES = List.of("formatter", "zone", "level", "off", "filter", "relevel", "redact",
            "override");

    @TempDir
    Path root;

    @Test
    void shouldWriteWhatPlainJulWrites_whenTheHandlerTheRecordOrTheZoneChangesAfterTheCall() throws Exception {
        Path plain = run("plain", List.of());
        List<String> agentJvm = new ArrayList<>(Forked.agentArgs("spool.log.level=debug"));
        Path agent = run("agent", agentJvm);
        String err = Files.readString(root.resolve("agent.err"));
        assertTrue(err.contains("JUL capture of "), "the handlers were captured: " + err);
        List<String> differ = new ArrayList<>();
        for (String probe : PROBES) {
            String p = Files.readString(plain.resolve(probe + ".log"), StandardCharsets.UTF_8);
            String a = Files.readString(agent.resolve(probe + ".log"), StandardCharsets.UTF_8);
            assertTrue(p.lines().count() >= 2 * RECORDS / 3, probe + ": the burst is in plain's file");
            if (!p.equals(a)) {
                List<String> pl = p.lines().toList();
                List<String> al = a.lines().toList();
                long changed = 0;
                for (int i = 0; i < Math.min(pl.size(), al.size()); i++) {
                    changed += pl.get(i).equals(al.get(i)) ? 0 : 1;
                }
                differ.add(probe + ": plain " + pl.size() + " lines, agent " + al.size() + " (" + changed
                        + " of the common ones differ; agent's last: " + (al.isEmpty() ? "none" : al.get(al.size() - 1)) + ")");
            }
        }
        assertEquals(List.of(), differ, "files that differ from plain's");
    }

    private Path run(String name, List<String> jvm) throws Exception {
        Path dir = Files.createDirectories(root.resolve(name));
        List<String> args = new ArrayList<>(jvm);
        args.add("-Djava.util.logging.SimpleFormatter.format=%1$tZ %4$s %3$s %5$s%n");
        args.add("-Duser.language=en");
        Forked host = Forked.start(root, name, args, Forked.hostClassPath(), "dev.spool.agent.host.JulLateChangeHost",
                dir.toString(), Integer.toString(RECORDS));
        String out = host.awaitSuccess();
        assertTrue(out.contains("done"), out);
        return dir;
    }
}
