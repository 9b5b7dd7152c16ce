package dev.spool.agent.host;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test host driven line by line from stdin, for dynamic attach: {@code write N} rewrites
 * {@code <dir>/doc.json} with step N and answers {@code wrote N}; end of input exits. Prints
 * {@code ready} first.
 */
public final class AttachHost {

    public static void main(String[] args) throws Exception {
        File file = new File(args[0], "doc.json");
        ObjectMapper mapper = new ObjectMapper();
        System.out.println("ready");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("write ")) {
                int step = Integer.parseInt(line.substring(6).trim());
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("step", step);
                mapper.writeValue(file, doc);
                Object seen = mapper.readValue(file, Map.class).get("step");
                System.out.println("wrote " + step + " read " + seen);
                System.out.flush();
            }
        }
    }
}
