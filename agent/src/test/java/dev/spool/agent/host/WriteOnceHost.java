package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.util.Map;

/**
 * Test host: writes {@code n} new files {@code job<i>.json} once each with Jackson and reads each
 * back with Jackson, prints {@code buffered existing=<how many of them File.exists()> read=<how
 * many read back right>}, waits for stdin to close (the test looks at the files meanwhile) and
 * exits normally (the agent's shutdown flush). Usage: {@code WriteOnceHost <dir> <n>}.
 */
public final class WriteOnceHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int n = Integer.parseInt(args[1]);
        dir.mkdirs();
        ObjectMapper mapper = new ObjectMapper();
        int existing = 0;
        int read = 0;
        for (int i = 0; i < n; i++) {
            File file = new File(dir, "job" + i + ".json");
            mapper.writeValue(file, Map.of("job", i));
            if (file.exists()) existing++;
            if (Integer.valueOf(i).equals(mapper.readValue(file, Map.class).get("job"))) read++;
        }
        System.out.println("buffered existing=" + existing + " read=" + read);
        System.out.flush();
        while (System.in.read() >= 0) {
            // the test looks at the files, then closes stdin
        }
        System.out.println("written");
    }
}
