package dev.spool.agent.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.core.type.TypeReference;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test host: keeps {@code docs} JSON documents, rewriting each after every step with the host's
 * own Jackson (ObjectMapper and a pretty ObjectWriter), and reads each back after every write
 * (readValue, readTree, ObjectReader) checking it sees what it wrote — served from memory under
 * the agent. Usage: {@code JsonHost <dir> <docs> <steps> [hold]}; prints {@code written} when
 * done, then with {@code hold} waits for stdin to close.
 */
public final class JsonHost {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        int docs = Integer.parseInt(args[1]);
        int steps = Integer.parseInt(args[2]);
        boolean hold = args.length > 3 && args[3].equals("hold");
        ObjectMapper mapper = new ObjectMapper();
        ObjectWriter pretty = mapper.writerWithDefaultPrettyPrinter();
        ObjectReader reader = mapper.readerFor(Map.class);
        dir.mkdirs();
        for (int step = 0; step < steps; step++) {
            for (int d = 0; d < docs; d++) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("doc", d);
                doc.put("step", step);
                List<Object> items = new ArrayList<>();
                for (int i = 0; i <= step % 5; i++) {
                    Map<String, Object> item = new LinkedHashMap<>(); // Map.of's order changes from run to run
                    item.put("i", i);
                    item.put("text", "line " + i + " of " + d);
                    items.add(item);
                }
                doc.put("items", items);
                File file = new File(dir, "doc-" + d + ".json");
                if (d % 2 == 0) {
                    mapper.writeValue(file, doc);
                } else {
                    pretty.writeValue(file, doc);
                }
                check(step, mapper.readValue(file, Map.class), file);
                check(step, mapper.readValue(file, new TypeReference<Map<String, Object>>() { }), file);
                check(step, reader.readValue(file), file);
                JsonNode tree = mapper.readTree(file);
                if (tree.get("step").asInt() != step) {
                    throw new IllegalStateException("readTree of " + file + " saw step " + tree.get("step"));
                }
                doc.put("step", -1); // mutating after the write must not leak into the file
            }
        }
        File nothing = new File(dir, "null.json");
        mapper.writeValue(nothing, null);
        if (mapper.readValue(nothing, Object.class) != null) {
            throw new IllegalStateException("null.json did not read back as null");
        }
        mapper.writeValue(new File(dir, "notes.txt"), List.of("kept out of the buffer by the include glob"));
        System.out.println("written");
        System.out.flush();
        if (hold) {
            while (System.in.read() >= 0) {
                // wait until the test closes stdin or kills this process
            }
        }
    }

    private static void check(int step, Object value, File file) {
        Object seen = ((Map<?, ?>) value).get("step");
        if (!(seen instanceof Number) || ((Number) seen).intValue() != step) {
            throw new IllegalStateException("read of " + file + " saw step " + seen + ", expected " + step);
        }
    }
}
