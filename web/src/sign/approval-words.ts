import type { Catalogue, Language } from '../../../server/src/i18n/index.js';

/** The signing page's words an approver reads in place of a signer's. */
type Replaced =
  | 'pageTitle'
  | 'eyebrow'
  | 'lede'
  | 'goToSigning'
  | 'goToStatus'
  | 'signAs'
  | 'dontWant'
  | 'decline'
  | 'reasonHint'
  | 'reasonRequired'
  | 'confirmDecline'
  | 'signedTitle'
  | 'signedBody'
  | 'declinedTitle'
  | 'notYourTurnTitle'
  | 'notYourTurnBody'
  | 'alreadySignedTitle'
  | 'alreadyDeclinedTitle'
  | 'cannotSignTitle';

/**
 * What an approver's signing page says (decisions §12): buttons `Approve` and `Reject` instead
 * of a signature, and the page's other words said of approving. Only this page says them, so
 * they live with it (as direct-link-words.ts does); `replaced` stands in for the signing words
 * of the same names on an approver's page.
 */
export type ApprovalWords = {
  approve: string;
  approving: string;
  approveIntro: string;
  replaced: Pick<Catalogue['signing'], Replaced>;
};

const en: ApprovalWords = {
  approve: 'Approve',
  approving: 'Approving…',
  approveIntro:
    'Read the document, then approve it or reject it. Approving needs no signature: your approval is recorded with the time, your address and your browser.',
  replaced: {
    pageTitle: 'Approve “{document}” · Signet',
    eyebrow: 'Approval requested',
    lede: '{sender} asks {signee} ({email}) to review and approve this document.',
    goToSigning: 'Go to approval ↓',
    goToStatus: 'Go to your approval status ↓',
    signAs: 'Approve as {name}',
    dontWant: 'Do not approve?',
    decline: 'Reject',
    reasonHint: 'Rejecting ends this signing for everyone. {sender} will see your reason.',
    reasonRequired: 'Write a short reason, so {sender} knows why you rejected it.',
    confirmDecline: 'Confirm reject',
    signedTitle: 'You approved “{document}”',
    signedBody:
      'Thank you. There is nothing else you need to do: once everyone has signed, you will receive the signed PDF by e-mail.',
    declinedTitle: 'You rejected “{document}”',
    notYourTurnTitle: 'It is not your turn to approve yet',
    notYourTurnBody:
      'Someone else needs to sign or approve before you. You will get an e-mail when it is your turn; you can read the document in the meantime.',
    alreadySignedTitle: 'You have approved this document',
    alreadyDeclinedTitle: 'You rejected this document',
    cannotSignTitle: 'This document cannot be approved right now',
  },
};

const de: ApprovalWords = {
  approve: 'Freigeben',
  approving: 'Wird freigegeben…',
  approveIntro:
    'Lesen Sie das Dokument, dann geben Sie es frei oder weisen es zurück. Die Freigabe braucht keine Unterschrift: Sie wird mit Zeit, Adresse und Browser festgehalten.',
  replaced: {
    pageTitle: '„{document}“ freigeben · Signet',
    eyebrow: 'Freigabe erbeten',
    lede: '{sender} bittet {signee} ({email}), dieses Dokument zu prüfen und freizugeben.',
    goToSigning: 'Zur Freigabe ↓',
    goToStatus: 'Zu Ihrem Freigabestatus ↓',
    signAs: 'Freigeben als {name}',
    dontWant: 'Sie möchten nicht freigeben?',
    decline: 'Zurückweisen',
    reasonHint:
      'Eine Zurückweisung beendet diese Unterschrift für alle. {sender} sieht Ihren Grund.',
    reasonRequired: 'Geben Sie kurz einen Grund an, damit {sender} weiß, warum Sie zurückweisen.',
    confirmDecline: 'Zurückweisung bestätigen',
    signedTitle: 'Sie haben „{document}“ freigegeben',
    signedBody:
      'Vielen Dank. Sie müssen nichts weiter tun: Sobald alle unterschrieben haben, erhalten Sie das unterschriebene PDF per E-Mail.',
    declinedTitle: 'Sie haben „{document}“ zurückgewiesen',
    notYourTurnTitle: 'Sie sind mit der Freigabe noch nicht an der Reihe',
    notYourTurnBody:
      'Vor Ihnen muss noch jemand unterschreiben oder freigeben. Sie erhalten eine E-Mail, sobald Sie an der Reihe sind; bis dahin können Sie das Dokument lesen.',
    alreadySignedTitle: 'Sie haben dieses Dokument freigegeben',
    alreadyDeclinedTitle: 'Sie haben dieses Dokument zurückgewiesen',
    cannotSignTitle: 'Dieses Dokument kann gerade nicht freigegeben werden',
  },
};

const fr: ApprovalWords = {
  approve: 'Approuver',
  approving: 'Approbation en cours…',
  approveIntro:
    "Lisez le document, puis approuvez-le ou rejetez-le. L'approbation ne demande aucune signature : elle est enregistrée avec l'heure, votre adresse et votre navigateur.",
  replaced: {
    pageTitle: 'Approuver « {document} » · Signet',
    eyebrow: 'Approbation demandée',
    lede: '{sender} demande à {signee} ({email}) d’examiner et d’approuver ce document.',
    goToSigning: 'Aller à l’approbation ↓',
    goToStatus: 'Voir le statut de votre approbation ↓',
    signAs: 'Approuver en tant que {name}',
    dontWant: 'Vous ne souhaitez pas approuver ?',
    decline: 'Rejeter',
    reasonHint: 'Rejeter met fin à cette signature pour tous. {sender} verra votre motif.',
    reasonRequired: 'Indiquez brièvement un motif, pour que {sender} sache pourquoi vous rejetez.',
    confirmDecline: 'Confirmer le rejet',
    signedTitle: 'Vous avez approuvé « {document} »',
    signedBody:
      "Merci. Vous n'avez rien d'autre à faire : une fois que tout le monde aura signé, vous recevrez le PDF signé par e-mail.",
    declinedTitle: 'Vous avez rejeté « {document} »',
    notYourTurnTitle: "Ce n'est pas encore votre tour d'approuver",
    notYourTurnBody:
      "Quelqu'un doit signer ou approuver avant vous. Vous recevrez un e-mail quand ce sera votre tour ; en attendant, vous pouvez lire le document.",
    alreadySignedTitle: 'Vous avez approuvé ce document',
    alreadyDeclinedTitle: 'Vous avez rejeté ce document',
    cannotSignTitle: 'Ce document ne peut pas être approuvé pour le moment',
  },
};

const es: ApprovalWords = {
  approve: 'Aprobar',
  approving: 'Aprobando…',
  approveIntro:
    'Lea el documento y después apruébelo o recházelo. Aprobar no requiere firma: su aprobación queda registrada con la hora, su dirección y su navegador.',
  replaced: {
    pageTitle: 'Aprobar «{document}» · Signet',
    eyebrow: 'Aprobación solicitada',
    lede: '{sender} pide a {signee} ({email}) que revise y apruebe este documento.',
    goToSigning: 'Ir a la aprobación ↓',
    goToStatus: 'Ver el estado de su aprobación ↓',
    signAs: 'Aprobar como {name}',
    dontWant: '¿No quiere aprobar?',
    decline: 'Rechazar',
    reasonHint: 'Rechazar termina esta firma para todos. {sender} verá su motivo.',
    reasonRequired: 'Escriba un breve motivo, para que {sender} sepa por qué lo rechaza.',
    confirmDecline: 'Confirmar el rechazo',
    signedTitle: 'Ha aprobado «{document}»',
    signedBody:
      'Gracias. No tiene que hacer nada más: cuando todos hayan firmado, recibirá el PDF firmado por correo.',
    declinedTitle: 'Ha rechazado «{document}»',
    notYourTurnTitle: 'Todavía no es su turno de aprobar',
    notYourTurnBody:
      'Alguien tiene que firmar o aprobar antes que usted. Recibirá un correo cuando sea su turno; mientras tanto, puede leer el documento.',
    alreadySignedTitle: 'Ha aprobado este documento',
    alreadyDeclinedTitle: 'Ha rechazado este documento',
    cannotSignTitle: 'Este documento no se puede aprobar ahora',
  },
};

const nl: ApprovalWords = {
  approve: 'Goedkeuren',
  approving: 'Bezig met goedkeuren…',
  approveIntro:
    'Lees het document en keur het daarna goed of af. Goedkeuren vraagt geen handtekening: uw goedkeuring wordt vastgelegd met de tijd, uw adres en uw browser.',
  replaced: {
    pageTitle: '"{document}" goedkeuren · Signet',
    eyebrow: 'Goedkeuring gevraagd',
    lede: '{sender} vraagt {signee} ({email}) dit document te bekijken en goed te keuren.',
    goToSigning: 'Naar het goedkeuren ↓',
    goToStatus: 'Naar uw goedkeuringsstatus ↓',
    signAs: 'Goedkeuren als {name}',
    dontWant: 'Wilt u niet goedkeuren?',
    decline: 'Afkeuren',
    reasonHint: 'Afkeuren beëindigt deze ondertekening voor iedereen. {sender} ziet uw reden.',
    reasonRequired: 'Geef een korte reden, zodat {sender} weet waarom u afkeurt.',
    confirmDecline: 'Afkeuring bevestigen',
    signedTitle: 'U hebt "{document}" goedgekeurd',
    signedBody:
      'Dank u. U hoeft verder niets te doen: zodra iedereen heeft ondertekend, ontvangt u de ondertekende pdf per e-mail.',
    declinedTitle: 'U hebt "{document}" afgekeurd',
    notYourTurnTitle: 'U bent nog niet aan de beurt om goed te keuren',
    notYourTurnBody:
      'Iemand anders moet eerst ondertekenen of goedkeuren. U krijgt een e-mail als u aan de beurt bent; intussen kunt u het document lezen.',
    alreadySignedTitle: 'U hebt dit document goedgekeurd',
    alreadyDeclinedTitle: 'U hebt dit document afgekeurd',
    cannotSignTitle: 'Dit document kan nu niet worden goedgekeurd',
  },
};

const pt: ApprovalWords = {
  approve: 'Aprovar',
  approving: 'Aprovando…',
  approveIntro:
    'Leia o documento e depois aprove-o ou rejeite-o. Aprovar não exige assinatura: a sua aprovação é registrada com a hora, o seu endereço e o seu navegador.',
  replaced: {
    pageTitle: 'Aprovar “{document}” · Signet',
    eyebrow: 'Aprovação solicitada',
    lede: '{sender} pede que {signee} ({email}) revise e aprove este documento.',
    goToSigning: 'Ir para a aprovação ↓',
    goToStatus: 'Ver o status da sua aprovação ↓',
    signAs: 'Aprovar como {name}',
    dontWant: 'Não quer aprovar?',
    decline: 'Rejeitar',
    reasonHint: 'Rejeitar encerra esta assinatura para todos. {sender} verá o seu motivo.',
    reasonRequired: 'Escreva um motivo curto, para que {sender} saiba por que você rejeitou.',
    confirmDecline: 'Confirmar rejeição',
    signedTitle: 'Você aprovou “{document}”',
    signedBody:
      'Obrigado. Você não precisa fazer mais nada: quando todos tiverem assinado, você receberá o PDF assinado por e-mail.',
    declinedTitle: 'Você rejeitou “{document}”',
    notYourTurnTitle: 'Ainda não é a sua vez de aprovar',
    notYourTurnBody:
      'Outra pessoa precisa assinar ou aprovar antes de você. Você receberá um e-mail quando for a sua vez; enquanto isso, pode ler o documento.',
    alreadySignedTitle: 'Você aprovou este documento',
    alreadyDeclinedTitle: 'Você rejeitou este documento',
    cannotSignTitle: 'Este documento não pode ser aprovado agora',
  },
};

const it: ApprovalWords = {
  approve: 'Approva',
  approving: 'Approvazione in corso…',
  approveIntro:
    'Legga il documento, poi lo approvi o lo respinga. L’approvazione non richiede una firma: viene registrata con l’ora, il Suo indirizzo e il Suo browser.',
  replaced: {
    pageTitle: 'Approva “{document}” · Signet',
    eyebrow: 'Approvazione richiesta',
    lede: '{sender} chiede a {signee} ({email}) di esaminare e approvare questo documento.',
    goToSigning: 'Vai all’approvazione ↓',
    goToStatus: 'Vai allo stato della Sua approvazione ↓',
    signAs: 'Approva come {name}',
    dontWant: 'Non vuole approvare?',
    decline: 'Respingi',
    reasonHint: 'Respingere chiude questa firma per tutti. {sender} vedrà il Suo motivo.',
    reasonRequired: 'Scriva un breve motivo, così {sender} saprà perché ha respinto.',
    confirmDecline: 'Conferma il respingimento',
    signedTitle: 'Ha approvato “{document}”',
    signedBody:
      'Grazie. Non deve fare altro: quando tutti avranno firmato, riceverà il PDF firmato per e-mail.',
    declinedTitle: 'Ha respinto “{document}”',
    notYourTurnTitle: 'Non è ancora il Suo turno di approvare',
    notYourTurnBody:
      'Qualcun altro deve firmare o approvare prima di Lei. Riceverà un’e-mail quando sarà il Suo turno; nel frattempo può leggere il documento.',
    alreadySignedTitle: 'Ha approvato questo documento',
    alreadyDeclinedTitle: 'Ha respinto questo documento',
    cannotSignTitle: 'Questo documento non può essere approvato ora',
  },
};

const pl: ApprovalWords = {
  approve: 'Zatwierdź',
  approving: 'Zatwierdzanie…',
  approveIntro:
    'Przeczytaj dokument, a potem go zatwierdź lub odrzuć. Zatwierdzenie nie wymaga podpisu: zostaje zapisane z czasem, Twoim adresem i przeglądarką.',
  replaced: {
    pageTitle: 'Zatwierdź „{document}” · Signet',
    eyebrow: 'Prośba o zatwierdzenie',
    lede: '{sender} prosi {signee} ({email}) o przejrzenie i zatwierdzenie tego dokumentu.',
    goToSigning: 'Przejdź do zatwierdzenia ↓',
    goToStatus: 'Przejdź do stanu zatwierdzenia ↓',
    signAs: 'Zatwierdź jako {name}',
    dontWant: 'Nie chcesz zatwierdzić?',
    decline: 'Odrzuć',
    reasonHint: 'Odrzucenie kończy to podpisywanie dla wszystkich. {sender} zobaczy Twój powód.',
    reasonRequired: 'Podaj krótki powód, aby {sender} wiedział, dlaczego odrzucasz.',
    confirmDecline: 'Potwierdź odrzucenie',
    signedTitle: 'Zatwierdzono „{document}”',
    signedBody:
      'Dziękujemy. Nie musisz nic więcej robić: gdy wszyscy podpiszą, otrzymasz podpisany PDF e-mailem.',
    declinedTitle: 'Odrzucono „{document}”',
    notYourTurnTitle: 'To jeszcze nie Twoja kolej na zatwierdzenie',
    notYourTurnBody:
      'Ktoś inny musi podpisać lub zatwierdzić przed Tobą. Dostaniesz e-mail, gdy przyjdzie Twoja kolej; w tym czasie możesz przeczytać dokument.',
    alreadySignedTitle: 'Ten dokument został przez Ciebie zatwierdzony',
    alreadyDeclinedTitle: 'Ten dokument został przez Ciebie odrzucony',
    cannotSignTitle: 'Tego dokumentu nie można teraz zatwierdzić',
  },
};

const ja: ApprovalWords = {
  approve: '承認',
  approving: '承認しています…',
  approveIntro:
    '文書を読んでから、承認または却下してください。承認に署名は不要です。承認は日時、アドレス、ブラウザーとともに記録されます。',
  replaced: {
    pageTitle: '「{document}」を承認 · Signet',
    eyebrow: '承認のお願い',
    lede: '{sender} が {signee}({email})にこの文書の確認と承認を依頼しています。',
    goToSigning: '承認へ進む ↓',
    goToStatus: '承認の状況を見る ↓',
    signAs: '{name} として承認',
    dontWant: '承認しない場合',
    decline: '却下',
    reasonHint: '却下すると、全員のこの署名手続きが終了します。{sender} に理由が表示されます。',
    reasonRequired: '却下の理由を {sender} に伝えるため、短く理由を書いてください。',
    confirmDecline: '却下を確定',
    signedTitle: '「{document}」を承認しました',
    signedBody:
      'ありがとうございました。これ以上の手続きは必要ありません。全員が署名すると、署名済み PDF がメールで届きます。',
    declinedTitle: '「{document}」を却下しました',
    notYourTurnTitle: 'まだあなたの承認の順番ではありません',
    notYourTurnBody:
      '先に別の方の署名または承認が必要です。順番になるとメールでお知らせします。それまでは文書を読むことができます。',
    alreadySignedTitle: 'この文書は承認済みです',
    alreadyDeclinedTitle: 'この文書は却下済みです',
    cannotSignTitle: 'この文書は現在承認できません',
  },
};

const zh: ApprovalWords = {
  approve: '批准',
  approving: '正在批准…',
  approveIntro:
    '请阅读文件,然后批准或驳回。批准无需签名:您的批准会连同时间、您的地址和浏览器一起记录。',
  replaced: {
    pageTitle: '批准“{document}”· Signet',
    eyebrow: '请求审批',
    lede: '{sender} 请 {signee}({email})审阅并批准此文件。',
    goToSigning: '前往审批 ↓',
    goToStatus: '查看您的审批状态 ↓',
    signAs: '以 {name} 的身份批准',
    dontWant: '不想批准?',
    decline: '驳回',
    reasonHint: '驳回将为所有人结束此次签署。{sender} 会看到您的原因。',
    reasonRequired: '请简短写明原因,让 {sender} 知道您驳回的理由。',
    confirmDecline: '确认驳回',
    signedTitle: '您已批准“{document}”',
    signedBody: '谢谢。您无需再做任何事:所有人签署后,您将通过电子邮件收到已签署的 PDF。',
    declinedTitle: '您已驳回“{document}”',
    notYourTurnTitle: '还没轮到您审批',
    notYourTurnBody:
      '需要其他人先签署或批准。轮到您时,您会收到一封电子邮件;在此期间,您可以阅读文件。',
    alreadySignedTitle: '您已批准此文件',
    alreadyDeclinedTitle: '您已驳回此文件',
    cannotSignTitle: '此文件目前无法批准',
  },
};

const ko: ApprovalWords = {
  approve: '승인',
  approving: '승인하는 중…',
  approveIntro:
    '문서를 읽은 후 승인하거나 반려하세요. 승인에는 서명이 필요하지 않으며, 승인 시각, 주소, 브라우저가 함께 기록됩니다.',
  replaced: {
    pageTitle: '“{document}” 승인 · Signet',
    eyebrow: '승인 요청',
    lede: '{sender} 님이 {signee} 님({email})에게 이 문서의 검토와 승인을 요청합니다.',
    goToSigning: '승인하러 가기 ↓',
    goToStatus: '승인 상태 보기 ↓',
    signAs: '{name}(으)로 승인',
    dontWant: '승인하지 않으시겠습니까?',
    decline: '반려',
    reasonHint: '반려하면 모든 사람의 서명 절차가 끝납니다. {sender} 님이 사유를 보게 됩니다.',
    reasonRequired: '{sender} 님이 반려 이유를 알 수 있도록 짧게 사유를 적어 주세요.',
    confirmDecline: '반려 확인',
    signedTitle: '“{document}”을(를) 승인했습니다',
    signedBody:
      '감사합니다. 더 하실 일은 없습니다. 모두가 서명하면 서명 완료 PDF를 이메일로 받게 됩니다.',
    declinedTitle: '“{document}”을(를) 반려했습니다',
    notYourTurnTitle: '아직 승인할 차례가 아닙니다',
    notYourTurnBody:
      '다른 사람이 먼저 서명하거나 승인해야 합니다. 차례가 되면 이메일을 보내 드립니다. 그동안 문서를 읽을 수 있습니다.',
    alreadySignedTitle: '이 문서를 승인했습니다',
    alreadyDeclinedTitle: '이 문서를 반려했습니다',
    cannotSignTitle: '지금은 이 문서를 승인할 수 없습니다',
  },
};

const ar: ApprovalWords = {
  approve: 'موافقة',
  approving: 'جارٍ تسجيل الموافقة…',
  approveIntro:
    'اقرأ المستند، ثم وافق عليه أو ارفضه. لا تتطلب الموافقة توقيعًا: تُسجَّل موافقتك مع الوقت وعنوانك ومتصفحك.',
  replaced: {
    pageTitle: 'الموافقة على «{document}» · Signet',
    eyebrow: 'طلب موافقة',
    lede: 'يطلب {sender} من {signee} ({email}) مراجعة هذا المستند والموافقة عليه.',
    goToSigning: 'الانتقال إلى الموافقة ↓',
    goToStatus: 'الانتقال إلى حالة موافقتك ↓',
    signAs: 'الموافقة باسم {name}',
    dontWant: 'لا تريد الموافقة؟',
    decline: 'رفض',
    reasonHint: 'الرفض يُنهي هذا التوقيع للجميع. سيرى {sender} السبب الذي تذكره.',
    reasonRequired: 'اكتب سببًا قصيرًا ليعرف {sender} لماذا رفضت.',
    confirmDecline: 'تأكيد الرفض',
    signedTitle: 'وافقت على «{document}»',
    signedBody:
      'شكرًا لك. لا يلزمك القيام بأي شيء آخر: حين يوقّع الجميع، ستتلقى ملف PDF الموقّع بالبريد الإلكتروني.',
    declinedTitle: 'رفضت «{document}»',
    notYourTurnTitle: 'لم يحن دورك في الموافقة بعد',
    notYourTurnBody:
      'يجب أن يوقّع شخص آخر أو يوافق قبلك. ستصلك رسالة بريد إلكتروني حين يحين دورك؛ ويمكنك قراءة المستند في الأثناء.',
    alreadySignedTitle: 'لقد وافقت على هذا المستند',
    alreadyDeclinedTitle: 'لقد رفضت هذا المستند',
    cannotSignTitle: 'لا يمكن الموافقة على هذا المستند الآن',
  },
};

/** An approver's words in each language of the signing page. */
export const APPROVAL_WORDS: Record<Language, ApprovalWords> = {
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
