package dev.spool.agent.jul;

import dev.spool.agent.journal.MappedLogJournal;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;

/**
 * Journaled {@code XMLFormatter} records' text as bytes, for recovery ({@link JulRecoveryFormatter}):
 * each frame decoded ({@link JulXmlJournalCodec.Decoder}), formatted by {@link JulXmlFormat} (the
 * writer's code, with the journal's {@code useInstant}) and encoded in the journal's charset, as
 * {@code String.getBytes} (the writer's bytes for these charsets, {@link JulJournalCharsets}). A
 * frame that does not decode or format is an unreadable line. Not thread-safe: one per formatting thread.
 */
final class JulXmlRecoveryLines implements JulRecoveryFormatter.Lines {
    private final JulXmlFormat format;
    private final Charset charset;
    private final JulXmlJournalCodec.Decoder decoder = new JulXmlJournalCodec.Decoder();
    private final JulMessageFormats formats = new JulMessageFormats();

    JulXmlRecoveryLines(boolean useInstant, Charset charset) {
        this.format = new JulXmlFormat(useInstant);
        this.charset = charset;
    }

    @Override
    public void append(ByteBuffer m, int at, JulRecoveryLines.Batch b, int i) {
        try {
            ByteBuffer p = m.slice(at + MappedLogJournal.FRAME_HEADER, m.getInt(at));
            byte[] text = format.format(decoder.decode(p), formats).getBytes(charset);
            b.put(text, 0, text.length);
        } catch (RuntimeException e) {
            b.unreadable[i] = true;
        }
        b.ends[i] = b.size;
    }
}
