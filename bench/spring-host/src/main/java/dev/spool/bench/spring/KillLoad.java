package dev.spool.bench.spring;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The load of a kill -9 check (issue 33, {@code scripts/spring-kill.sh}): {@code users} virtual users
 * send request ids {@code first + user, first + user + users, ...} until the server stops answering
 * (it was killed) or {@code max} ids were sent, then writes every id whose response came back
 * ({@code 200 "ok <id>"}: the request's log line was logged before the response) to {@code acked},
 * one per line. The server logs {@code request <id> wrote ...} per request; the script checks that
 * each acknowledged id is in the log files after the next start.
 *
 * <pre>java -cp target/classes dev.spool.bench.spring.KillLoad PORT FIRST MAX USERS ACKED_FILE</pre>
 */
public final class KillLoad {

    private KillLoad() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long first = Long.parseLong(args[1]);
        int max = Integer.parseInt(args[2]);
        int users = Integer.parseInt(args[3]);
        Path ackedFile = Path.of(args[4]);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://127.0.0.1:" + port + "/doc?id=";
        ConcurrentLinkedQueue<Long> acked = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            int user = u;
            Thread t = new Thread(() -> {
                for (int k = user; k < max; k += users) {
                    long id = first + k;
                    HttpRequest request = HttpRequest.newBuilder(URI.create(base + id))
                            .timeout(Duration.ofSeconds(10)).GET().build();
                    try {
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200 || !r.body().equals("ok " + id)) {
                            return; // not acknowledged: the server is going
                        }
                        acked.add(id);
                    } catch (IOException e) {
                        return; // the server died: this user stops
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, "user-" + u);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(ackedFile))) {
            for (Long id : acked) {
                out.println(id);
            }
        }
        System.out.println("acked " + acked.size());
    }
}
