import type { Language } from '../../../server/src/i18n/index.js';

/**
 * What the signing page says after the signing: while the others sign and the copy is sealed,
 * the signed copy's download, and what a link re-opened later found (signed by everyone,
 * declined, cancelled, expired). Only this page says it, so it lives with the page.
 */
export type FinishedWords = {
  waitingForOthers: string;
  preparingCopy: string;
  copyReadyTitle: string;
  copyReadyBody: string;
  downloadCopy: string;
  copyValidity: string;
  copyRevoked: string;
  copyExpired: string;
  copyByEmail: string;
  signedTitle: string;
  signedBody: string;
  sealingTitle: string;
  declinedTitle: string;
  declinedByYouBody: string;
  declinedBody: string;
  cancelledTitle: string;
  cancelledBody: string;
  expiredTitle: string;
  expiredBody: string;
};

const en: FinishedWords = {
  waitingForOthers:
    'Waiting for the others to sign. Your signed copy will appear here once everyone has signed; you can keep this page open or close it.',
  preparingCopy: 'Preparing the signed copy…',
  copyReadyTitle: 'Signed by everyone',
  copyReadyBody: 'Everyone has signed “{document}”. Your signed copy is ready.',
  downloadCopy: 'Download the signed copy',
  copyValidity:
    'This download works for 30 days after the signing. The signed copy was also sent to you by e-mail.',
  copyRevoked:
    '{sender} has withdrawn the download of the signed copy. Ask them if you need a copy.',
  copyExpired:
    'The download of the signed copy has expired (it works for 30 days after the signing). Ask {sender} if you need a copy.',
  copyByEmail: 'The signed copy was sent to you by e-mail.',
  signedTitle: '“{document}” has been signed by everyone',
  signedBody: 'Signing is complete. There is nothing else you need to do.',
  sealingTitle: 'Everyone has signed “{document}”',
  declinedTitle: '“{document}” was declined',
  declinedByYouBody:
    'You declined to sign, so signing has ended for everyone. {sender} has been told.',
  declinedBody:
    '{name} declined to sign, so signing has ended for everyone and this link no longer works. There is nothing else you need to do.',
  cancelledTitle: '“{document}” was cancelled',
  cancelledBody:
    '{sender} cancelled this document, so it can no longer be signed and this link no longer works. There is nothing else you need to do.',
  expiredTitle: 'The time to sign “{document}” has run out',
  expiredBody:
    'The document expired before everyone had signed, so it can no longer be signed. If you still need to sign, ask {sender} to send it again.',
};

const de: FinishedWords = {
  waitingForOthers:
    'Die anderen haben noch nicht alle unterschrieben. Ihre unterschriebene Kopie erscheint hier, sobald alle unterschrieben haben; Sie können diese Seite offen lassen oder schließen.',
  preparingCopy: 'Die unterschriebene Kopie wird vorbereitet …',
  copyReadyTitle: 'Von allen unterschrieben',
  copyReadyBody: 'Alle haben „{document}“ unterschrieben. Ihre unterschriebene Kopie ist bereit.',
  downloadCopy: 'Unterschriebene Kopie herunterladen',
  copyValidity:
    'Dieser Download funktioniert 30 Tage nach der Unterzeichnung. Die unterschriebene Kopie wurde Ihnen auch per E-Mail gesendet.',
  copyRevoked:
    '{sender} hat den Download der unterschriebenen Kopie zurückgezogen. Fragen Sie dort nach, wenn Sie eine Kopie brauchen.',
  copyExpired:
    'Der Download der unterschriebenen Kopie ist abgelaufen (er funktioniert 30 Tage nach der Unterzeichnung). Fragen Sie {sender}, wenn Sie eine Kopie brauchen.',
  copyByEmail: 'Die unterschriebene Kopie wurde Ihnen per E-Mail gesendet.',
  signedTitle: '„{document}“ wurde von allen unterschrieben',
  signedBody: 'Die Unterzeichnung ist abgeschlossen. Sie müssen nichts weiter tun.',
  sealingTitle: 'Alle haben „{document}“ unterschrieben',
  declinedTitle: '„{document}“ wurde abgelehnt',
  declinedByYouBody:
    'Sie haben abgelehnt zu unterschreiben; die Unterzeichnung ist damit für alle beendet. {sender} wurde informiert.',
  declinedBody:
    '{name} hat abgelehnt zu unterschreiben; die Unterzeichnung ist damit für alle beendet, und dieser Link funktioniert nicht mehr. Sie müssen nichts weiter tun.',
  cancelledTitle: '„{document}“ wurde storniert',
  cancelledBody:
    '{sender} hat dieses Dokument storniert; es kann nicht mehr unterschrieben werden, und dieser Link funktioniert nicht mehr. Sie müssen nichts weiter tun.',
  expiredTitle: 'Die Frist zum Unterschreiben von „{document}“ ist abgelaufen',
  expiredBody:
    'Das Dokument ist abgelaufen, bevor alle unterschrieben hatten, und kann nicht mehr unterschrieben werden. Wenn Sie noch unterschreiben müssen, bitten Sie {sender}, es erneut zu senden.',
};

const fr: FinishedWords = {
  waitingForOthers:
    'Les autres signataires n’ont pas encore tous signé. Votre copie signée apparaîtra ici dès que tout le monde aura signé ; vous pouvez laisser cette page ouverte ou la fermer.',
  preparingCopy: 'Préparation de la copie signée…',
  copyReadyTitle: 'Signé par tous',
  copyReadyBody: 'Tout le monde a signé « {document} ». Votre copie signée est prête.',
  downloadCopy: 'Télécharger la copie signée',
  copyValidity:
    'Ce téléchargement fonctionne pendant 30 jours après la signature. La copie signée vous a aussi été envoyée par e-mail.',
  copyRevoked:
    '{sender} a retiré le téléchargement de la copie signée. Demandez-lui une copie si vous en avez besoin.',
  copyExpired:
    'Le téléchargement de la copie signée a expiré (il fonctionne pendant 30 jours après la signature). Demandez une copie à {sender} si vous en avez besoin.',
  copyByEmail: 'La copie signée vous a été envoyée par e-mail.',
  signedTitle: '« {document} » a été signé par tous',
  signedBody: 'La signature est terminée. Vous n’avez plus rien à faire.',
  sealingTitle: 'Tout le monde a signé « {document} »',
  declinedTitle: '« {document} » a été refusé',
  declinedByYouBody:
    'Vous avez refusé de signer : la signature est donc terminée pour tous. {sender} en a été informé.',
  declinedBody:
    '{name} a refusé de signer : la signature est donc terminée pour tous et ce lien ne fonctionne plus. Vous n’avez plus rien à faire.',
  cancelledTitle: '« {document} » a été annulé',
  cancelledBody:
    '{sender} a annulé ce document : il ne peut plus être signé et ce lien ne fonctionne plus. Vous n’avez plus rien à faire.',
  expiredTitle: 'Le délai pour signer « {document} » est écoulé',
  expiredBody:
    'Le document a expiré avant que tout le monde ait signé : il ne peut plus être signé. Si vous devez encore signer, demandez à {sender} de le renvoyer.',
};

const es: FinishedWords = {
  waitingForOthers:
    'Aún faltan firmas de otras personas. Su copia firmada aparecerá aquí cuando todos hayan firmado; puede dejar esta página abierta o cerrarla.',
  preparingCopy: 'Preparando la copia firmada…',
  copyReadyTitle: 'Firmado por todos',
  copyReadyBody: 'Todos han firmado «{document}». Su copia firmada está lista.',
  downloadCopy: 'Descargar la copia firmada',
  copyValidity:
    'Esta descarga funciona durante 30 días después de la firma. La copia firmada también se le envió por correo electrónico.',
  copyRevoked:
    '{sender} ha retirado la descarga de la copia firmada. Pídale una copia si la necesita.',
  copyExpired:
    'La descarga de la copia firmada ha caducado (funciona durante 30 días después de la firma). Pida una copia a {sender} si la necesita.',
  copyByEmail: 'La copia firmada se le envió por correo electrónico.',
  signedTitle: '«{document}» ha sido firmado por todos',
  signedBody: 'La firma ha finalizado. No necesita hacer nada más.',
  sealingTitle: 'Todos han firmado «{document}»',
  declinedTitle: '«{document}» fue rechazado',
  declinedByYouBody:
    'Usted rechazó firmar, así que la firma ha terminado para todos. Se ha informado a {sender}.',
  declinedBody:
    '{name} rechazó firmar, así que la firma ha terminado para todos y este enlace ya no funciona. No necesita hacer nada más.',
  cancelledTitle: '«{document}» fue cancelado',
  cancelledBody:
    '{sender} canceló este documento: ya no se puede firmar y este enlace ya no funciona. No necesita hacer nada más.',
  expiredTitle: 'El plazo para firmar «{document}» ha terminado',
  expiredBody:
    'El documento caducó antes de que todos firmaran, así que ya no se puede firmar. Si todavía necesita firmar, pida a {sender} que lo envíe de nuevo.',
};

const nl: FinishedWords = {
  waitingForOthers:
    'Nog niet iedereen heeft ondertekend. Uw ondertekende kopie verschijnt hier zodra iedereen heeft ondertekend; u kunt deze pagina open laten of sluiten.',
  preparingCopy: 'De ondertekende kopie wordt voorbereid…',
  copyReadyTitle: 'Door iedereen ondertekend',
  copyReadyBody: 'Iedereen heeft "{document}" ondertekend. Uw ondertekende kopie is klaar.',
  downloadCopy: 'Ondertekende kopie downloaden',
  copyValidity:
    'Deze download werkt 30 dagen na de ondertekening. De ondertekende kopie is u ook per e-mail gestuurd.',
  copyRevoked:
    '{sender} heeft de download van de ondertekende kopie ingetrokken. Vraag daar om een kopie als u die nodig hebt.',
  copyExpired:
    'De download van de ondertekende kopie is verlopen (hij werkt 30 dagen na de ondertekening). Vraag {sender} om een kopie als u die nodig hebt.',
  copyByEmail: 'De ondertekende kopie is u per e-mail gestuurd.',
  signedTitle: '"{document}" is door iedereen ondertekend',
  signedBody: 'De ondertekening is voltooid. U hoeft niets meer te doen.',
  sealingTitle: 'Iedereen heeft "{document}" ondertekend',
  declinedTitle: '"{document}" is geweigerd',
  declinedByYouBody:
    'U hebt geweigerd te ondertekenen, dus de ondertekening is voor iedereen beëindigd. {sender} is op de hoogte gebracht.',
  declinedBody:
    '{name} heeft geweigerd te ondertekenen, dus de ondertekening is voor iedereen beëindigd en deze link werkt niet meer. U hoeft niets meer te doen.',
  cancelledTitle: '"{document}" is geannuleerd',
  cancelledBody:
    '{sender} heeft dit document geannuleerd: het kan niet meer worden ondertekend en deze link werkt niet meer. U hoeft niets meer te doen.',
  expiredTitle: 'De tijd om "{document}" te ondertekenen is verstreken',
  expiredBody:
    'Het document is verlopen voordat iedereen had ondertekend en kan niet meer worden ondertekend. Moet u nog ondertekenen, vraag {sender} dan om het opnieuw te sturen.',
};

const pt: FinishedWords = {
  waitingForOthers:
    'Ainda faltam assinaturas de outras pessoas. Sua cópia assinada aparecerá aqui quando todos tiverem assinado; você pode deixar esta página aberta ou fechá-la.',
  preparingCopy: 'Preparando a cópia assinada…',
  copyReadyTitle: 'Assinado por todos',
  copyReadyBody: 'Todos assinaram “{document}”. Sua cópia assinada está pronta.',
  downloadCopy: 'Baixar a cópia assinada',
  copyValidity:
    'Este download funciona por 30 dias após a assinatura. A cópia assinada também foi enviada a você por e-mail.',
  copyRevoked: '{sender} retirou o download da cópia assinada. Peça uma cópia se precisar.',
  copyExpired:
    'O download da cópia assinada expirou (ele funciona por 30 dias após a assinatura). Peça uma cópia a {sender} se precisar.',
  copyByEmail: 'A cópia assinada foi enviada a você por e-mail.',
  signedTitle: '“{document}” foi assinado por todos',
  signedBody: 'A assinatura está concluída. Você não precisa fazer mais nada.',
  sealingTitle: 'Todos assinaram “{document}”',
  declinedTitle: '“{document}” foi recusado',
  declinedByYouBody:
    'Você recusou assinar, então a assinatura terminou para todos. {sender} foi informado.',
  declinedBody:
    '{name} recusou assinar, então a assinatura terminou para todos e este link não funciona mais. Você não precisa fazer mais nada.',
  cancelledTitle: '“{document}” foi cancelado',
  cancelledBody:
    '{sender} cancelou este documento: ele não pode mais ser assinado e este link não funciona mais. Você não precisa fazer mais nada.',
  expiredTitle: 'O prazo para assinar “{document}” terminou',
  expiredBody:
    'O documento expirou antes que todos assinassem, então não pode mais ser assinado. Se ainda precisar assinar, peça a {sender} que o envie novamente.',
};

const it: FinishedWords = {
  waitingForOthers:
    'Non hanno ancora firmato tutti. La sua copia firmata apparirà qui quando tutti avranno firmato; può lasciare aperta questa pagina o chiuderla.',
  preparingCopy: 'Preparazione della copia firmata…',
  copyReadyTitle: 'Firmato da tutti',
  copyReadyBody: 'Tutti hanno firmato “{document}”. La sua copia firmata è pronta.',
  downloadCopy: 'Scarica la copia firmata',
  copyValidity:
    'Questo download funziona per 30 giorni dopo la firma. La copia firmata le è stata inviata anche via e-mail.',
  copyRevoked:
    '{sender} ha ritirato il download della copia firmata. Chieda una copia se le serve.',
  copyExpired:
    'Il download della copia firmata è scaduto (funziona per 30 giorni dopo la firma). Chieda una copia a {sender} se le serve.',
  copyByEmail: 'La copia firmata le è stata inviata via e-mail.',
  signedTitle: '“{document}” è stato firmato da tutti',
  signedBody: 'La firma è completata. Non deve fare altro.',
  sealingTitle: 'Tutti hanno firmato “{document}”',
  declinedTitle: '“{document}” è stato rifiutato',
  declinedByYouBody:
    'Ha rifiutato di firmare, quindi la firma è terminata per tutti. {sender} è stato informato.',
  declinedBody:
    '{name} ha rifiutato di firmare, quindi la firma è terminata per tutti e questo link non funziona più. Non deve fare altro.',
  cancelledTitle: '“{document}” è stato annullato',
  cancelledBody:
    '{sender} ha annullato questo documento: non può più essere firmato e questo link non funziona più. Non deve fare altro.',
  expiredTitle: 'Il tempo per firmare “{document}” è scaduto',
  expiredBody:
    'Il documento è scaduto prima che tutti firmassero, quindi non può più essere firmato. Se deve ancora firmare, chieda a {sender} di inviarlo di nuovo.',
};

const pl: FinishedWords = {
  waitingForOthers:
    'Nie wszyscy jeszcze podpisali. Podpisana kopia pojawi się tutaj, gdy wszyscy podpiszą; możesz zostawić tę stronę otwartą lub ją zamknąć.',
  preparingCopy: 'Przygotowywanie podpisanej kopii…',
  copyReadyTitle: 'Podpisane przez wszystkich',
  copyReadyBody: 'Wszyscy podpisali „{document}”. Twoja podpisana kopia jest gotowa.',
  downloadCopy: 'Pobierz podpisaną kopię',
  copyValidity:
    'To pobieranie działa przez 30 dni od podpisania. Podpisaną kopię wysłano Ci też e-mailem.',
  copyRevoked:
    '{sender} wycofał(a) pobieranie podpisanej kopii. Poproś o kopię, jeśli jej potrzebujesz.',
  copyExpired:
    'Pobieranie podpisanej kopii wygasło (działa przez 30 dni od podpisania). Poproś {sender} o kopię, jeśli jej potrzebujesz.',
  copyByEmail: 'Podpisaną kopię wysłano Ci e-mailem.',
  signedTitle: '„{document}” podpisali wszyscy',
  signedBody: 'Podpisywanie zakończone. Nie musisz nic więcej robić.',
  sealingTitle: 'Wszyscy podpisali „{document}”',
  declinedTitle: '„{document}” został odrzucony',
  declinedByYouBody:
    'Odmówiłeś(-aś) podpisania, więc podpisywanie zakończyło się dla wszystkich. {sender} został(a) powiadomiony(-a).',
  declinedBody:
    '{name} odmówił(a) podpisania, więc podpisywanie zakończyło się dla wszystkich, a ten link już nie działa. Nie musisz nic więcej robić.',
  cancelledTitle: '„{document}” został anulowany',
  cancelledBody:
    '{sender} anulował(a) ten dokument: nie można go już podpisać, a ten link już nie działa. Nie musisz nic więcej robić.',
  expiredTitle: 'Czas na podpisanie „{document}” minął',
  expiredBody:
    'Dokument wygasł, zanim wszyscy go podpisali, więc nie można go już podpisać. Jeśli nadal musisz podpisać, poproś {sender} o ponowne wysłanie.',
};

const ja: FinishedWords = {
  waitingForOthers:
    'まだ全員の署名が済んでいません。全員が署名すると、署名済みのコピーがここに表示されます。このページは開いたままでも閉じてもかまいません。',
  preparingCopy: '署名済みのコピーを準備しています…',
  copyReadyTitle: '全員が署名しました',
  copyReadyBody: '全員が「{document}」に署名しました。署名済みのコピーの準備ができました。',
  downloadCopy: '署名済みのコピーをダウンロード',
  copyValidity:
    'このダウンロードは署名から30日間有効です。署名済みのコピーはメールでもお送りしています。',
  copyRevoked:
    '{sender}が署名済みのコピーのダウンロードを取り消しました。コピーが必要な場合は問い合わせてください。',
  copyExpired:
    '署名済みのコピーのダウンロードは有効期限が切れました（署名から30日間有効）。コピーが必要な場合は{sender}に問い合わせてください。',
  copyByEmail: '署名済みのコピーはメールでお送りしています。',
  signedTitle: '「{document}」は全員が署名しました',
  signedBody: '署名は完了しました。これ以上の操作は不要です。',
  sealingTitle: '全員が「{document}」に署名しました',
  declinedTitle: '「{document}」は辞退されました',
  declinedByYouBody:
    'あなたが署名を辞退したため、全員の署名手続きが終了しました。{sender}に通知済みです。',
  declinedBody:
    '{name}が署名を辞退したため、全員の署名手続きが終了し、このリンクは使えなくなりました。これ以上の操作は不要です。',
  cancelledTitle: '「{document}」は取り消されました',
  cancelledBody:
    '{sender}がこの文書を取り消したため、署名できなくなり、このリンクは使えなくなりました。これ以上の操作は不要です。',
  expiredTitle: '「{document}」の署名期限が過ぎました',
  expiredBody:
    '全員が署名する前に文書の期限が切れたため、署名できなくなりました。まだ署名が必要な場合は、{sender}に再送を依頼してください。',
};

const zh: FinishedWords = {
  waitingForOthers:
    '还有人尚未签署。所有人签署后，您的已签署副本将显示在这里；您可以保持此页面打开，也可以关闭它。',
  preparingCopy: '正在准备已签署的副本…',
  copyReadyTitle: '所有人均已签署',
  copyReadyBody: '所有人均已签署“{document}”。您的已签署副本已准备就绪。',
  downloadCopy: '下载已签署的副本',
  copyValidity: '此下载在签署后 30 天内有效。已签署的副本也已通过电子邮件发送给您。',
  copyRevoked: '{sender}已撤回已签署副本的下载。如需副本，请与其联系。',
  copyExpired: '已签署副本的下载已过期（签署后 30 天内有效）。如需副本，请联系{sender}。',
  copyByEmail: '已签署的副本已通过电子邮件发送给您。',
  signedTitle: '“{document}”已由所有人签署',
  signedBody: '签署已完成。您无需再做任何操作。',
  sealingTitle: '所有人均已签署“{document}”',
  declinedTitle: '“{document}”已被拒签',
  declinedByYouBody: '您拒绝了签署，因此所有人的签署均已结束。已通知{sender}。',
  declinedBody: '{name}拒绝了签署，因此所有人的签署均已结束，此链接已失效。您无需再做任何操作。',
  cancelledTitle: '“{document}”已被取消',
  cancelledBody: '{sender}已取消此文档：它无法再签署，此链接已失效。您无需再做任何操作。',
  expiredTitle: '签署“{document}”的期限已过',
  expiredBody: '文档在所有人签署之前已过期，因此无法再签署。如果您仍需签署，请让{sender}重新发送。',
};

const ko: FinishedWords = {
  waitingForOthers:
    '아직 모든 사람이 서명하지 않았습니다. 모두 서명하면 서명된 사본이 여기에 표시됩니다. 이 페이지를 열어 두거나 닫아도 됩니다.',
  preparingCopy: '서명된 사본을 준비하는 중…',
  copyReadyTitle: '모두 서명했습니다',
  copyReadyBody: '모든 사람이 “{document}”에 서명했습니다. 서명된 사본이 준비되었습니다.',
  downloadCopy: '서명된 사본 다운로드',
  copyValidity:
    '이 다운로드는 서명 후 30일 동안 유효합니다. 서명된 사본은 이메일로도 보내 드렸습니다.',
  copyRevoked: '{sender}님이 서명된 사본의 다운로드를 철회했습니다. 사본이 필요하면 문의하세요.',
  copyExpired:
    '서명된 사본의 다운로드가 만료되었습니다(서명 후 30일 동안 유효). 사본이 필요하면 {sender}님에게 문의하세요.',
  copyByEmail: '서명된 사본은 이메일로 보내 드렸습니다.',
  signedTitle: '“{document}”에 모두 서명했습니다',
  signedBody: '서명이 완료되었습니다. 더 하실 일은 없습니다.',
  sealingTitle: '모든 사람이 “{document}”에 서명했습니다',
  declinedTitle: '“{document}”이(가) 거절되었습니다',
  declinedByYouBody:
    '서명을 거절하셨으므로 모든 사람의 서명이 종료되었습니다. {sender}님에게 알렸습니다.',
  declinedBody:
    '{name}님이 서명을 거절하여 모든 사람의 서명이 종료되었으며 이 링크는 더 이상 작동하지 않습니다. 더 하실 일은 없습니다.',
  cancelledTitle: '“{document}”이(가) 취소되었습니다',
  cancelledBody:
    '{sender}님이 이 문서를 취소하여 더 이상 서명할 수 없으며 이 링크는 더 이상 작동하지 않습니다. 더 하실 일은 없습니다.',
  expiredTitle: '“{document}”의 서명 기한이 지났습니다',
  expiredBody:
    '모든 사람이 서명하기 전에 문서가 만료되어 더 이상 서명할 수 없습니다. 아직 서명해야 한다면 {sender}님에게 다시 보내 달라고 요청하세요.',
};

const ar: FinishedWords = {
  waitingForOthers:
    'لم يوقّع الجميع بعد. ستظهر نسختك الموقّعة هنا عندما يوقّع الجميع؛ يمكنك إبقاء هذه الصفحة مفتوحة أو إغلاقها.',
  preparingCopy: 'جارٍ تجهيز النسخة الموقّعة…',
  copyReadyTitle: 'وقّع الجميع',
  copyReadyBody: 'وقّع الجميع على «{document}». نسختك الموقّعة جاهزة.',
  downloadCopy: 'تنزيل النسخة الموقّعة',
  copyValidity:
    'يعمل هذا التنزيل لمدة 30 يومًا بعد التوقيع. أُرسلت إليك النسخة الموقّعة أيضًا بالبريد الإلكتروني.',
  copyRevoked: 'سحب {sender} تنزيل النسخة الموقّعة. اطلب نسخة إن احتجت إليها.',
  copyExpired:
    'انتهت صلاحية تنزيل النسخة الموقّعة (يعمل لمدة 30 يومًا بعد التوقيع). اطلب نسخة من {sender} إن احتجت إليها.',
  copyByEmail: 'أُرسلت إليك النسخة الموقّعة بالبريد الإلكتروني.',
  signedTitle: 'وقّع الجميع على «{document}»',
  signedBody: 'اكتمل التوقيع. لا يلزمك فعل أي شيء آخر.',
  sealingTitle: 'وقّع الجميع على «{document}»',
  declinedTitle: 'رُفض «{document}»',
  declinedByYouBody: 'رفضت التوقيع، لذا انتهى التوقيع للجميع. أُبلغ {sender} بذلك.',
  declinedBody:
    'رفض {name} التوقيع، لذا انتهى التوقيع للجميع ولم يعد هذا الرابط يعمل. لا يلزمك فعل أي شيء آخر.',
  cancelledTitle: 'أُلغي «{document}»',
  cancelledBody:
    'ألغى {sender} هذا المستند، فلم يعد من الممكن توقيعه ولم يعد هذا الرابط يعمل. لا يلزمك فعل أي شيء آخر.',
  expiredTitle: 'انتهت مهلة توقيع «{document}»',
  expiredBody:
    'انتهت صلاحية المستند قبل أن يوقّع الجميع، فلم يعد من الممكن توقيعه. إن كنت لا تزال بحاجة إلى التوقيع، فاطلب من {sender} إرساله مرة أخرى.',
};

/** The page's after-signing words in each of Signet's languages. */
export const FINISHED_WORDS: Record<Language, FinishedWords> = {
  en,
  de,
  fr,
  es,
  nl,
  pt,
  it,
  pl,
  ja,
  zh,
  ko,
  ar,
};
