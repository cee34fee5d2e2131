/*
 * ui.js — the player's own words in each language it speaks (the quiz's
 * text comes from the data), and each language's name on its button.
 * Loaded by index.html as a plain script (window.QuizUI) before player.js
 * and labbox.js, which word everything through it, and write every number
 * they show with its number() or figure(), and a lab's sentences with prose().
 */
(function (root) {
  'use strict';

  // LABTEXT-WORDS: the lab box's words are also in compiler/lab_text.c (GIFT, Moodle, QTI).
  var UI = {
    en: {
      question: 'Question {n} of {total}', point: '1 point', points: '{n} points',
      check: 'Check answer', finish: 'Finish and submit', answer: 'Your answer',
      correct: 'Correct.', wrong: 'Not quite.', enterNumber: 'Enter a number.', partly: 'Partly right: {p}% of the points.', correctChoice: '(correct answer)',
      unit: 'Unit', language: 'Language', accepted: 'Accepted answer: {a}',
      numAnswer: 'Accepted: {lo} to {hi}', numExact: 'The answer: {x}', score: 'Score: {s}% (pass mark {p}%)',
      passed: 'Passed.', failed: 'Not passed yet.', unanswered: 'Not answered.',
      preview: 'Preview: no LMS found, so results are not recorded.',
      connected: 'Connected to the LMS: your answers are saved.',
      tryLab: 'Try it in the lab', runThis: 'Run:', expect: 'What you should see:',
      snippet: 'The code that runs', copy: 'Copy', copied: 'Copied.', copyByHand: 'Selected: press Ctrl+C to copy.', trueLabel: 'True', falseLabel: 'False',
      done: 'Submitted.', leftUnanswered: '{n} question(s) not answered yet.',
      opLt: 'below', opLe: 'at most', opGt: 'above', opGe: 'at least', opEq: 'equal to',
      within: 'within {t} of', ofAnswer: 'this question\'s answer',
      measuredOn: 'Measured on {machine}, {date}', cpuCores: '{n} cores of {cpu}', pass: 'PASS', fail: 'FAIL',
      basisMeasured: 'measured', basisReplayed: 'replayed from measured costs', basisModelled: 'modelled',
      basisExact: 'exact', notReported: '(the run did not report it)', ownChecks: 'The lab\'s own checks: {ok} of {n} passed.',
      timeline: 'Timeline of the recorded run', notes: 'Notes of the run', ownRun: 'Check your own run', ownHint: 'Run this command and give its output here. It is checked in this page; nothing is sent anywhere.',
      ownFile: 'Report file:', ownPaste: 'Or paste it:', ownCheck: 'Check my run',
      notJson: 'This is not JSON: give the output of labrun --json.',
      empty: 'There is nothing to check: give the output of labrun --json.',
      notNumber: '(the report gives {v}, not a number)',
      notRun: 'This JSON is not a labrun report (it has no lab, params and metrics).',
      tooLarge: 'This file is too large for a labrun report.',
      otherLab: 'This run is {ran}; the question asks for {asked}.',
      otherParams: 'This run is {lab} with {ran}; the question asks for {asked}.',
      ownSummary: 'Your run bears out {ok} of {n} claims.', checksFailed: '{n} of the lab\'s own checks failed in this run.',
      webRun: 'Run it in this page', webRunButton: 'Run', webStop: 'Stop', webLoading: 'Loading the lab\u2026',
      webRunning: 'Running\u2026', webStopped: 'Stopped.', webFailed: 'The lab did not run:',
      webHint: 'The lab runs here, in your browser (WebAssembly): nothing is installed or sent anywhere. Change the values to explore; the claims are about the question\'s values.',
      webMachine: 'Your browser, WebAssembly, 1 thread, {date}', webFigures: 'Figures of this run',
      webMetric: 'Metric', webValue: 'Value', webBasis: 'Basis', webTimeline: 'Timeline of this run',
      webMissing: 'This package does not carry the labs (quizc --no-live-labs).',
      webJson: 'The report as labrun --json writes it'
    },
    id: {
      question: 'Soal {n} dari {total}', point: '1 poin', points: '{n} poin',
      check: 'Periksa jawaban', finish: 'Selesai dan kirim', answer: 'Jawaban Anda',
      correct: 'Benar.', wrong: 'Belum tepat.', enterNumber: 'Masukkan angka.', partly: 'Sebagian benar: {p}% dari poin.', correctChoice: '(jawaban benar)',
      unit: 'Satuan', language: 'Bahasa', accepted: 'Jawaban yang diterima: {a}',
      numAnswer: 'Diterima: {lo} sampai {hi}', numExact: 'Jawabannya: {x}', score: 'Nilai: {s}% (batas lulus {p}%)',
      passed: 'Lulus.', failed: 'Belum lulus.', unanswered: 'Belum dijawab.',
      preview: 'Pratinjau: LMS tidak ditemukan, jadi hasil tidak dicatat.',
      connected: 'Terhubung ke LMS: jawaban Anda disimpan.',
      tryLab: 'Coba di lab', runThis: 'Jalankan:', expect: 'Yang seharusnya Anda lihat:',
      snippet: 'Kode yang dijalankan', copy: 'Salin', copied: 'Tersalin.', copyByHand: 'Sudah dipilih: tekan Ctrl+C untuk menyalin.', trueLabel: 'Benar', falseLabel: 'Salah',
      done: 'Terkirim.', leftUnanswered: '{n} soal belum dijawab.',
      opLt: 'di bawah', opLe: 'paling banyak', opGt: 'di atas', opGe: 'paling sedikit', opEq: 'sama dengan',
      within: 'dalam selisih {t} dari', ofAnswer: 'jawaban soal ini',
      measuredOn: 'Diukur pada {machine}, {date}', cpuCores: '{n} inti {cpu}', pass: 'LULUS', fail: 'GAGAL',
      basisMeasured: 'diukur', basisReplayed: 'diputar ulang dari biaya terukur', basisModelled: 'dimodelkan',
      basisExact: 'eksak', notReported: '(run ini tidak melaporkannya)', ownChecks: 'Pemeriksaan lab sendiri: {ok} dari {n} lulus.',
      timeline: 'Linimasa run yang direkam', notes: 'Catatan run', ownRun: 'Periksa run Anda sendiri', ownHint: 'Jalankan perintah ini lalu berikan keluarannya di sini. Keluaran diperiksa di halaman ini; tidak ada yang dikirim ke mana pun.',
      ownFile: 'Berkas laporan:', ownPaste: 'Atau tempelkan:', ownCheck: 'Periksa run saya',
      notJson: 'Ini bukan JSON: berikan keluaran labrun --json.',
      empty: 'Tidak ada yang bisa diperiksa: berikan keluaran labrun --json.',
      notNumber: '(laporan memberi {v}, bukan angka)',
      notRun: 'JSON ini bukan laporan labrun (tidak ada lab, params, dan metrics).',
      tooLarge: 'Berkas ini terlalu besar untuk laporan labrun.',
      otherLab: 'Run ini adalah {ran}; soal ini meminta {asked}.',
      otherParams: 'Run ini adalah {lab} dengan {ran}; soal ini meminta {asked}.',
      ownSummary: 'Run Anda membuktikan {ok} dari {n} klaim.', checksFailed: '{n} pemeriksaan lab sendiri gagal pada run ini.',
      webRun: 'Jalankan di halaman ini', webRunButton: 'Jalankan', webStop: 'Hentikan', webLoading: 'Memuat lab\u2026',
      webRunning: 'Berjalan\u2026', webStopped: 'Dihentikan.', webFailed: 'Lab tidak berjalan:',
      webHint: 'Lab berjalan di sini, di peramban Anda (WebAssembly): tidak ada yang dipasang atau dikirim ke mana pun. Ubah nilainya untuk menjelajah; klaim berlaku untuk nilai soal ini.',
      webMachine: 'Peramban Anda, WebAssembly, 1 utas, {date}', webFigures: 'Angka run ini',
      webMetric: 'Metrik', webValue: 'Nilai', webBasis: 'Dasar', webTimeline: 'Linimasa run ini',
      webMissing: 'Paket ini tidak membawa lab (quizc --no-live-labs).',
      webJson: 'Laporan seperti yang ditulis labrun --json'
    }
  };
  var LANG_NAMES = { id: 'Bahasa Indonesia', en: 'English', und: 'Default' };

  /*
   * Each language's decimal mark: Indonesian writes 0,2727 as its quiz text
   * does, English 0.2727.  A language not listed writes the point.
   */
  var DECIMAL = { id: ',' };

  /* The decimal mark of lang ("id", "id-ID", "en"). */
  function decimalMark(lang) {
    var base = String(lang).split('-')[0];
    return Object.prototype.hasOwnProperty.call(DECIMAL, base) ? DECIMAL[base] : '.';
  }

  /*
   * A number as the learner reads it in lang: every digit JavaScript gives
   * (0.2627, 87.5, 1e-7), with lang's decimal mark.  Anything not a finite
   * number is "-".  Every number the player shows goes through this or
   * figure().
   */
  function number(x, lang) {
    if (typeof x !== 'number' || !isFinite(x)) return '-';
    var s = String(x);
    return s.replace('.', decimalMark(lang));
  }

  /*
   * A measured figure, near labrun --verify's: 4, 0.2727, 1.2e-7, 12346
   * (four significant digits, trailing zeros dropped), in lang; "-" for none.
   */
  function figure(x, lang) {
    if (typeof x !== 'number' || !isFinite(x)) return '-';
    if (x === Math.trunc(x) && Math.abs(x) < 1e15) return number(x, lang);
    /* As text: 1.798e+308 would read back as infinity. */
    if (Math.abs(x) >= 1e4 && Math.abs(x) < 1e15) return number(Math.round(x), lang);
    var s = x.toPrecision(4);
    if (s.indexOf('e') >= 0) s = s.replace(/\.?0+e/, 'e');
    else if (s.indexOf('.') >= 0) s = s.replace(/\.?0+$/, '');
    return s.replace('.', decimalMark(lang));
  }

  /*
   * A lab's own sentence (a check's detail, a note, a table's cell) in lang:
   * each decimal point between two digits takes lang's mark and the words
   * stay, as labrun's readable report prints it (text_in, runtime/report.c).
   */
  function prose(s, lang) {
    var mark = decimalMark(lang);
    return mark === '.' ? String(s) : String(s).replace(/(\d)\.(?=\d)/g, '$1' + mark);
  }

  var api = { strings: UI, names: LANG_NAMES, number: number, figure: figure, prose: prose, decimalMark: decimalMark };
  root.QuizUI = api;
  if (typeof module === 'object' && module.exports) module.exports = api;
})(typeof window !== 'undefined' ? window : globalThis);
