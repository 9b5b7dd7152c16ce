package dev.spool.bench.spring;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load generator: {@code users} virtual users, each a thread with one request in flight at a
 * time over keep-alive HTTP/1.1, first an untimed warm-up of ids {@code [0, warmup)}, then the
 * measured ids {@code [warmup, warmup + requests)}. User {@code u} sends the ids {@code = u mod
 * users} in increasing order, and {@code users} divides 100, so every JSON file slot
 * ({@code id % 100}) is written by one user in order: its last content is the same in every run.
 *
 * <p>Prints one line: {@code result requests=N ms=.. rps=.. p50_us=.. p99_us=.. max_us=.. errors=0
 * server_cpu_ms=.. cpu_us_per_req=.. client_cpu_us_per_req=..} then, when the server's pid is given, the server's CPU of the
 * measured phase by thread group ({@code /proc/PID/task}, digits in names folded). Exits 1 on any
 * failed request.
 *
 * <pre>java -cp target/classes dev.spool.bench.spring.LoadGen PORT WARMUP REQUESTS USERS [SERVER_PID]</pre>
 */
public final class LoadGen {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        int requests = Integer.parseInt(args[2]);
        int users = Integer.parseInt(args[3]);
        long pid = args.length > 4 ? Long.parseLong(args[4]) : -1;
        if (100 % users != 0 || warmup % 100 != 0) {
            throw new IllegalArgumentException("users must divide 100 and warmup be a multiple of 100");
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        String base = "http://127.0.0.1:" + port + "/doc?id=";
        AtomicLong errors = new AtomicLong();
        phase(client, base, 0, warmup, users, errors);
        ThreadCpu before = pid > 0 ? ThreadCpu.read(pid) : null;
        long clientCpu0 = ownCpuNanos();
        long t0 = System.nanoTime();
        long[] latencies = phase(client, base, warmup, requests, users, errors);
        long ns = System.nanoTime() - t0;
        long clientCpu = ownCpuNanos() - clientCpu0;
        ThreadCpu after = pid > 0 ? ThreadCpu.read(pid) : null;
        Arrays.sort(latencies);
        double ms = ns / 1e6;
        StringBuilder line = new StringBuilder(String.format(
                "result requests=%d ms=%.0f rps=%.0f p50_us=%d p99_us=%d max_us=%d errors=%d",
                requests, ms, requests / (ms / 1000), pct(latencies, 50) / 1000,
                pct(latencies, 99) / 1000, latencies[latencies.length - 1] / 1000, errors.get()));
        if (before != null) {
            long cpuMs = after.totalMs() - before.totalMs();
            line.append(String.format(" server_cpu_ms=%d cpu_us_per_req=%.0f", cpuMs, cpuMs * 1000.0 / requests));
        }
        line.append(String.format(" client_cpu_us_per_req=%.0f", clientCpu / 1000.0 / requests));
        System.out.println(line);
        if (before != null) {
            System.out.println("server cpu by thread group (ms): " + after.minus(before));
        }
        System.exit(errors.get() == 0 ? 0 : 1);
    }

    private static long[] phase(HttpClient client, String base, int first, int count, int users,
                                AtomicLong errors) throws InterruptedException {
        long[] latencies = new long[count];
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            int user = u;
            Thread t = new Thread(() -> {
                for (int k = user; k < count; k += users) {
                    long id = first + k;
                    HttpRequest request = HttpRequest.newBuilder(URI.create(base + id))
                            .timeout(Duration.ofSeconds(30)).GET().build();
                    long start = System.nanoTime();
                    try {
                        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200 || !r.body().equals("ok " + id)) {
                            errors.incrementAndGet();
                            System.err.println("request " + id + ": " + r.statusCode() + " " + r.body());
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        System.err.println("request " + id + ": " + e);
                    }
                    latencies[k] = System.nanoTime() - start;
                }
            }, "user-" + u);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return latencies;
    }

    /** This load generator's own CPU (all its threads, the HttpClient's included): it shares the cores. */
    private static long ownCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long pct(long[] sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
