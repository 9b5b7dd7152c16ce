package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.File;
import java.util.List;

/**
 * Test host of the capture differential: writes every {@link DiffCases} case with
 * {@code writeValue(File)} and reads each back with every reader of the catalogue, printing one
 * line per write and per read (the value read, with each node's type, or the exception's class).
 * Run plain and under the agent, the two outputs and the two folders must be identical. A write
 * that throws leaves its (torn) file deleted. Usage: {@code CaptureDiffHost <dir> [hold]}; prints
 * {@code done}, then with {@code hold} waits for stdin to close.
 */
public final class CaptureDiffHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        dir.mkdirs();
        List<DiffCases.Case> cases = DiffCases.cases();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < cases.size(); i++) {
            DiffCases.Case c = cases.get(i);
            File f = new File(dir, i + ".json");
            try {
                if (c.value() instanceof DiffMisbehaving.ChangedAfterWrite) {
                    java.nio.file.Files.writeString(f.toPath(), "{}"); // a rewrite: the buffer holds it past the call
                }
                if (c.caller() instanceof ObjectMapper m) {
                    m.writeValue(f, c.value());
                } else {
                    ((ObjectWriter) c.caller()).writeValue(f, c.value());
                }
                out.append("W ").append(c.name()).append(" ok\n");
                if (c.value() instanceof DiffMisbehaving.ChangedAfterWrite changed) {
                    changed.afterWrite(); // K: a change after the call must reach neither the file nor a read
                }
            } catch (Exception e) {
                out.append("W ").append(c.name()).append(" !").append(e.getClass().getSimpleName()).append('\n');
                f.delete();
                continue;
            }
            for (DiffCases.Read r : DiffCases.reads(c)) {
                out.append("R ").append(c.name()).append(' ').append(r.name()).append(' ').append(DiffCases.read(r, f)).append('\n');
            }
        }
        // I: a path through a missing folder and back up: the OS cannot open it, whatever ".." seems to cancel
        File dotdot = new File(dir, "missing/../dotdot.json");
        new ObjectMapper().writeValue(new File(dir, "dotdot.json"), List.of(0)); // buffered: a lexical key would find it
        try {
            new ObjectMapper().writeValue(dotdot, List.of(1));
            out.append("W I.dotdotThroughMissingFolder ok\n");
        } catch (Exception e) {
            out.append("W I.dotdotThroughMissingFolder !").append(e.getClass().getSimpleName()).append('\n');
        }
        out.append("R I.dotdotThroughMissingFolder ").append(DiffCases.read(DiffCases.reads(cases.get(0)).get(0), dotdot)).append('\n');
        System.out.print(out);
        System.out.println("cases " + cases.size());
        System.out.println("done");
        System.out.flush();
        if (args.length > 1 && args[1].equals("hold")) {
            while (System.in.read() >= 0) {
                // wait until the test closes stdin
            }
        }
    }
}
