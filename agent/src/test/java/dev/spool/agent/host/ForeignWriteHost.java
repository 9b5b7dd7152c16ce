package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test host: writes {@code doc.json} twice (the first creates it, the second is buffered), prints
 * {@code buffered} and waits for stdin to close (the test writes the file itself meanwhile, as
 * another process would), then writes it a third time, reads it back, prints {@code read step=<n>}
 * and {@code written}, and exits normally (the agent's shutdown flush). Usage:
 * {@code ForeignWriteHost <dir>}.
 */
public final class ForeignWriteHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        dir.mkdirs();
        File file = new File(dir, "doc.json");
        ObjectMapper mapper = new ObjectMapper();
        mapper.writeValue(file, doc(0));
        mapper.writeValue(file, doc(1));
        System.out.println("buffered");
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test writes doc.json itself, then closes stdin
        }
        mapper.writeValue(file, doc(2));
        System.out.println("read step=" + mapper.readValue(file, Map.class).get("step"));
        System.out.println("written");
    }

    private static Map<String, Object> doc(int step) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("step", step);
        doc.put("values", new double[] {0.5 * step, 1.25, -3.0e-7});
        return doc;
    }
}
