package dev.spool.bench.spring;

import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Per request: one log line through SLF4J/Logback and one small JSON document rewritten with
 * Spring's own {@link ObjectMapper} into one of {@value #SLOTS} files ({@code id % 100}). The
 * document depends only on the request id, so two runs that serve the same ids in the same order
 * per file leave the same bytes.
 *
 * <p>With {@code host.floor=true} (the benchmark's floor, not what a user runs) the document is
 * encoded with {@code writeValueAsBytes} and kept in memory instead of written; the script also
 * turns this logger off, so that run costs HTTP, Spring MVC and the JSON encoding, but no file.
 */
@RestController
class DocumentController {

    static final int SLOTS = 100;
    private static final Logger log = LoggerFactory.getLogger(DocumentController.class);

    private final ObjectMapper mapper;
    private final File folder;
    private final boolean floor;
    private final Map<Integer, byte[]> kept = new ConcurrentHashMap<>();

    DocumentController(ObjectMapper mapper, @Value("${host.data:data}") String data,
                       @Value("${host.floor:false}") boolean floor) {
        this.mapper = mapper;
        this.floor = floor;
        this.folder = new File(data);
        if (!folder.isDirectory() && !folder.mkdirs()) {
            throw new IllegalStateException("cannot create " + folder.getAbsolutePath());
        }
    }

    @GetMapping("/ping")
    String ping() {
        return "pong";
    }

    @GetMapping("/doc")
    String doc(@RequestParam long id) throws IOException {
        int slot = (int) (id % SLOTS);
        File file = new File(folder, "doc-" + slot + ".json");
        if (floor) {
            kept.put(slot, mapper.writeValueAsBytes(document(id, slot)));
        } else {
            mapper.writeValue(file, document(id, slot));
        }
        log.info("request {} wrote {} (slot {})", id, file.getName(), slot);
        return "ok " + id;
    }

    private static Map<String, Object> document(long id, int slot) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("alpha", id * 0.25);
        params.put("beta", slot);
        params.put("mode", id % 2 == 0 ? "even" : "odd");
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("id", id);
        doc.put("name", "doc-" + slot);
        doc.put("params", params);
        doc.put("tags", List.of("t" + (id % 7), "slot-" + slot, "v1"));
        doc.put("state", List.of(id / 3.0, slot * 1.5, -1.0));
        return doc;
    }
}
