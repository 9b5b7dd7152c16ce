package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.util.Map;

/**
 * Test host that keeps going when its writes fail (a read-only folder): rewrites
 * {@code <dir>/doc.json} {@code writes} times, counting the IOExceptions Jackson throws, and
 * prints {@code done failures=N}.
 */
public final class TolerantJsonHost {

    public static void main(String[] args) throws Exception {
        File file = new File(args[0], "doc.json");
        int writes = Integer.parseInt(args[1]);
        ObjectMapper mapper = new ObjectMapper();
        int failures = 0;
        for (int i = 0; i < writes; i++) {
            try {
                mapper.writeValue(file, Map.of("step", i));
            } catch (IOException e) {
                failures++;
            }
        }
        System.out.println("done failures=" + failures);
    }
}
