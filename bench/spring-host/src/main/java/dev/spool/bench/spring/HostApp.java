package dev.spool.bench.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * A plain Spring Boot web app, as a user would write it: no Spool code. Started with
 * {@code server.port=0}, it writes the port it got to {@code ./port} once Tomcat listens, so the
 * benchmark script awaits that file (and {@code /ping}) instead of sleeping.
 */
@SpringBootApplication
public class HostApp implements ApplicationListener<WebServerInitializedEvent> {

    public static void main(String[] args) {
        SpringApplication.run(HostApp.class, args);
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        try {
            Path tmp = Path.of("port.tmp");
            Files.writeString(tmp, Integer.toString(event.getWebServer().getPort()));
            Files.move(tmp, Path.of("port"), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write ./port", e);
        }
    }
}
