import type { Language } from '../../../server/src/i18n/index.js';

/**
 * What a template's direct link page (`/t/{token}`) says before the visitor reaches the signing
 * page. Only this page says it, so it lives with the page rather than in the server's catalogues;
 * the English labels are the ones decisions §11 names (`Your name`, `Your e-mail`, `Continue`).
 */
export type DirectLinkWords = {
  pageTitle: string;
  lede: string;
  yourName: string;
  yourEmail: string;
  emailHint: string;
  continue: string;
  opening: string;
  nameRequired: string;
  emailRequired: string;
  emailInvalid: string;
  invalidTitle: string;
  invalidBody: string;
  disabledTitle: string;
  disabledBody: string;
  busy: string;
  unavailable: string;
};

const en: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} asks you to sign this document. Enter your name and e-mail address to open it.',
  yourName: 'Your name',
  yourEmail: 'Your e-mail',
  emailHint: 'The signed copy is sent to this address.',
  continue: 'Continue',
  opening: 'Opening the document…',
  nameRequired: 'Enter your name.',
  emailRequired: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, such as name@example.com.',
  invalidTitle: 'This link is not valid',
  invalidBody:
    'Check that you opened the complete link. If it still does not work, ask whoever shared it with you.',
  disabledTitle: 'This link has been disabled',
  disabledBody:
    'Its owner no longer takes signatures through this link. Ask whoever shared it with you how to sign instead.',
  busy: 'This link has been used a lot lately, from here or with this e-mail address. Please try again in about {minutes} min.',
  unavailable: 'This link cannot be used right now. Please try again later, or contact {sender}.',
};

const de: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} bittet Sie, dieses Dokument zu unterschreiben. Geben Sie Ihren Namen und Ihre E-Mail-Adresse ein, um es zu öffnen.',
  yourName: 'Ihr Name',
  yourEmail: 'Ihre E-Mail',
  emailHint: 'Die unterschriebene Kopie wird an diese Adresse gesendet.',
  continue: 'Weiter',
  opening: 'Das Dokument wird geöffnet …',
  nameRequired: 'Geben Sie Ihren Namen ein.',
  emailRequired: 'Geben Sie Ihre E-Mail-Adresse ein.',
  emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.',
  invalidTitle: 'Dieser Link ist ungültig',
  invalidBody:
    'Prüfen Sie, ob Sie den vollständigen Link geöffnet haben. Funktioniert er weiterhin nicht, fragen Sie die Person, die ihn Ihnen gegeben hat.',
  disabledTitle: 'Dieser Link wurde deaktiviert',
  disabledBody:
    'Über diesen Link werden keine Unterschriften mehr angenommen. Fragen Sie die Person, die ihn Ihnen gegeben hat, wie Sie stattdessen unterschreiben können.',
  busy: 'Dieser Link wurde zuletzt sehr oft verwendet, von hier oder mit dieser E-Mail-Adresse. Bitte versuchen Sie es in etwa {minutes} Min. erneut.',
  unavailable:
    'Dieser Link kann gerade nicht verwendet werden. Bitte versuchen Sie es später erneut oder wenden Sie sich an {sender}.',
};

const fr: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} vous demande de signer ce document. Saisissez votre nom et votre adresse e-mail pour l’ouvrir.',
  yourName: 'Votre nom',
  yourEmail: 'Votre e-mail',
  emailHint: 'La copie signée est envoyée à cette adresse.',
  continue: 'Continuer',
  opening: 'Ouverture du document…',
  nameRequired: 'Saisissez votre nom.',
  emailRequired: 'Saisissez votre adresse e-mail.',
  emailInvalid: 'Saisissez une adresse e-mail valide, par exemple nom@example.com.',
  invalidTitle: 'Ce lien n’est pas valide',
  invalidBody:
    'Vérifiez que vous avez ouvert le lien complet. S’il ne fonctionne toujours pas, demandez à la personne qui vous l’a transmis.',
  disabledTitle: 'Ce lien a été désactivé',
  disabledBody:
    'Ce lien n’accepte plus de signatures. Demandez à la personne qui vous l’a transmis comment signer autrement.',
  busy: 'Ce lien a beaucoup servi ces derniers temps, depuis cet endroit ou avec cette adresse e-mail. Veuillez réessayer dans environ {minutes} min.',
  unavailable:
    'Ce lien ne peut pas être utilisé pour le moment. Veuillez réessayer plus tard ou contacter {sender}.',
};

const es: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} le pide que firme este documento. Escriba su nombre y su correo electrónico para abrirlo.',
  yourName: 'Su nombre',
  yourEmail: 'Su correo electrónico',
  emailHint: 'La copia firmada se envía a esta dirección.',
  continue: 'Continuar',
  opening: 'Abriendo el documento…',
  nameRequired: 'Escriba su nombre.',
  emailRequired: 'Escriba su dirección de correo electrónico.',
  emailInvalid: 'Escriba una dirección de correo válida, como nombre@example.com.',
  invalidTitle: 'Este enlace no es válido',
  invalidBody:
    'Compruebe que ha abierto el enlace completo. Si sigue sin funcionar, pregunte a quien se lo compartió.',
  disabledTitle: 'Este enlace se ha desactivado',
  disabledBody:
    'Este enlace ya no admite firmas. Pregunte a quien se lo compartió cómo firmar de otra manera.',
  busy: 'Este enlace se ha usado mucho últimamente, desde aquí o con esta dirección de correo. Inténtelo de nuevo dentro de unos {minutes} min.',
  unavailable:
    'Este enlace no se puede usar ahora. Inténtelo de nuevo más tarde o póngase en contacto con {sender}.',
};

const nl: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} vraagt u dit document te ondertekenen. Vul uw naam en e-mailadres in om het te openen.',
  yourName: 'Uw naam',
  yourEmail: 'Uw e-mail',
  emailHint: 'De ondertekende kopie wordt naar dit adres gestuurd.',
  continue: 'Doorgaan',
  opening: 'Het document wordt geopend…',
  nameRequired: 'Vul uw naam in.',
  emailRequired: 'Vul uw e-mailadres in.',
  emailInvalid: 'Vul een geldig e-mailadres in, zoals naam@example.com.',
  invalidTitle: 'Deze link is niet geldig',
  invalidBody:
    'Controleer of u de volledige link hebt geopend. Werkt hij dan nog niet, vraag het aan wie hem met u deelde.',
  disabledTitle: 'Deze link is uitgeschakeld',
  disabledBody:
    'Via deze link worden geen handtekeningen meer aangenomen. Vraag aan wie hem met u deelde hoe u anders kunt ondertekenen.',
  busy: 'Deze link is de laatste tijd vaak gebruikt, vanaf hier of met dit e-mailadres. Probeer het over ongeveer {minutes} min. opnieuw.',
  unavailable:
    'Deze link kan nu niet worden gebruikt. Probeer het later opnieuw of neem contact op met {sender}.',
};

const pt: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} pede que você assine este documento. Informe o seu nome e e-mail para abri-lo.',
  yourName: 'Seu nome',
  yourEmail: 'Seu e-mail',
  emailHint: 'A cópia assinada é enviada para este endereço.',
  continue: 'Continuar',
  opening: 'Abrindo o documento…',
  nameRequired: 'Informe o seu nome.',
  emailRequired: 'Informe o seu endereço de e-mail.',
  emailInvalid: 'Informe um endereço de e-mail válido, como nome@example.com.',
  invalidTitle: 'Este link não é válido',
  invalidBody:
    'Verifique se você abriu o link completo. Se ainda não funcionar, fale com quem o compartilhou com você.',
  disabledTitle: 'Este link foi desativado',
  disabledBody:
    'O responsável não aceita mais assinaturas por este link. Pergunte a quem o compartilhou com você como assinar de outra forma.',
  busy: 'Este link foi muito usado nos últimos tempos, daqui ou com este e-mail. Tente de novo em cerca de {minutes} min.',
  unavailable: 'Este link não pode ser usado agora. Tente mais tarde ou fale com {sender}.',
};

const it: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} Le chiede di firmare questo documento. Inserisca nome e indirizzo e-mail per aprirlo.',
  yourName: 'Il Suo nome',
  yourEmail: 'La Sua e-mail',
  emailHint: 'La copia firmata viene inviata a questo indirizzo.',
  continue: 'Continua',
  opening: 'Apertura del documento…',
  nameRequired: 'Inserisca il Suo nome.',
  emailRequired: 'Inserisca il Suo indirizzo e-mail.',
  emailInvalid: 'Inserisca un indirizzo e-mail valido, ad esempio nome@example.com.',
  invalidTitle: 'Questo link non è valido',
  invalidBody:
    'Verifichi di aver aperto il link completo. Se ancora non funziona, chieda a chi l’ha condiviso con Lei.',
  disabledTitle: 'Questo link è stato disattivato',
  disabledBody:
    'Il titolare non accetta più firme tramite questo link. Chieda a chi l’ha condiviso con Lei come firmare in altro modo.',
  busy: 'Questo link è stato usato molto di recente, da qui o con questo indirizzo e-mail. Riprovi tra circa {minutes} min.',
  unavailable: 'Questo link non può essere usato ora. Riprovi più tardi o contatti {sender}.',
};

const pl: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} prosi Cię o podpisanie tego dokumentu. Podaj imię i nazwisko oraz adres e-mail, aby go otworzyć.',
  yourName: 'Imię i nazwisko',
  yourEmail: 'Twój e-mail',
  emailHint: 'Podpisana kopia zostanie wysłana na ten adres.',
  continue: 'Dalej',
  opening: 'Otwieranie dokumentu…',
  nameRequired: 'Podaj imię i nazwisko.',
  emailRequired: 'Podaj adres e-mail.',
  emailInvalid: 'Podaj prawidłowy adres e-mail, np. imie@example.com.',
  invalidTitle: 'Ten link jest nieprawidłowy',
  invalidBody:
    'Sprawdź, czy otwarto pełny link. Jeśli nadal nie działa, zapytaj osobę, która go udostępniła.',
  disabledTitle: 'Ten link został wyłączony',
  disabledBody:
    'Właściciel nie przyjmuje już podpisów przez ten link. Zapytaj osobę, która go udostępniła, jak podpisać w inny sposób.',
  busy: 'Ten link był ostatnio często używany, stąd lub z tym adresem e-mail. Spróbuj ponownie za około {minutes} min.',
  unavailable: 'Tego linku nie można teraz użyć. Spróbuj później lub skontaktuj się z {sender}.',
};

const ja: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} がこの文書への署名を依頼しています。開くには氏名とメールアドレスを入力してください。',
  yourName: '氏名',
  yourEmail: 'メールアドレス',
  emailHint: '署名済みの写しはこのアドレスに送られます。',
  continue: '続ける',
  opening: '文書を開いています…',
  nameRequired: '氏名を入力してください。',
  emailRequired: 'メールアドレスを入力してください。',
  emailInvalid: 'name@example.com のような有効なメールアドレスを入力してください。',
  invalidTitle: 'このリンクは無効です',
  invalidBody:
    'リンクを最後まで開いたか確認してください。それでも開けない場合は、リンクを共有した方にお問い合わせください。',
  disabledTitle: 'このリンクは無効化されています',
  disabledBody:
    'このリンクからの署名は受け付けを終了しました。別の署名方法について、リンクを共有した方にお問い合わせください。',
  busy: 'このリンクは最近、この場所またはこのメールアドレスから何度も使われています。約 {minutes} 分後にもう一度お試しください。',
  unavailable:
    'このリンクは現在使用できません。後でもう一度試すか、{sender} にお問い合わせください。',
};

const zh: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} 请您签署此文件。请输入您的姓名和电子邮箱以打开文件。',
  yourName: '您的姓名',
  yourEmail: '您的电子邮箱',
  emailHint: '已签署的副本将发送到此地址。',
  continue: '继续',
  opening: '正在打开文件…',
  nameRequired: '请输入您的姓名。',
  emailRequired: '请输入您的电子邮箱地址。',
  emailInvalid: '请输入有效的电子邮箱地址,例如 name@example.com。',
  invalidTitle: '此链接无效',
  invalidBody: '请确认您打开的是完整链接。如果仍然无法打开,请询问与您分享链接的人。',
  disabledTitle: '此链接已停用',
  disabledBody: '链接所有者已不再通过此链接接受签名。请询问与您分享链接的人,了解其他签署方式。',
  busy: '此链接最近在这里或用此电子邮箱使用过多次。请在大约 {minutes} 分钟后重试。',
  unavailable: '此链接目前无法使用。请稍后重试,或联系 {sender}。',
};

const ko: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: '{sender} 님이 이 문서의 서명을 요청합니다. 문서를 열려면 이름과 이메일 주소를 입력하세요.',
  yourName: '이름',
  yourEmail: '이메일',
  emailHint: '서명 완료 사본은 이 주소로 보내집니다.',
  continue: '계속',
  opening: '문서를 여는 중…',
  nameRequired: '이름을 입력하세요.',
  emailRequired: '이메일 주소를 입력하세요.',
  emailInvalid: 'name@example.com과 같은 올바른 이메일 주소를 입력하세요.',
  invalidTitle: '유효하지 않은 링크입니다',
  invalidBody:
    '링크 전체를 열었는지 확인하세요. 그래도 열리지 않으면 링크를 공유한 사람에게 문의하세요.',
  disabledTitle: '사용 중지된 링크입니다',
  disabledBody:
    '이 링크로는 더 이상 서명을 받지 않습니다. 다른 서명 방법은 링크를 공유한 사람에게 문의하세요.',
  busy: '이 링크는 최근 이곳에서 또는 이 이메일 주소로 여러 번 사용되었습니다. 약 {minutes}분 후에 다시 시도하세요.',
  unavailable:
    '지금은 이 링크를 사용할 수 없습니다. 나중에 다시 시도하거나 {sender} 님에게 문의하세요.',
};

const ar: DirectLinkWords = {
  pageTitle: '{document} · Signet',
  lede: 'يطلب منك {sender} توقيع هذا المستند. أدخل اسمك وبريدك الإلكتروني لفتحه.',
  yourName: 'اسمك',
  yourEmail: 'بريدك الإلكتروني',
  emailHint: 'تُرسل النسخة الموقّعة إلى هذا العنوان.',
  continue: 'متابعة',
  opening: 'جارٍ فتح المستند…',
  nameRequired: 'أدخل اسمك.',
  emailRequired: 'أدخل عنوان بريدك الإلكتروني.',
  emailInvalid: 'أدخل عنوان بريد إلكتروني صالحًا، مثل name@example.com.',
  invalidTitle: 'هذا الرابط غير صالح',
  invalidBody: 'تأكد من أنك فتحت الرابط كاملًا. إذا لم يعمل بعد ذلك، فاسأل من شاركه معك.',
  disabledTitle: 'عُطّل هذا الرابط',
  disabledBody:
    'لم يعد صاحبه يقبل التوقيعات عبر هذا الرابط. اسأل من شاركه معك عن طريقة أخرى للتوقيع.',
  busy: 'استُخدم هذا الرابط كثيرًا مؤخرًا، من هنا أو بعنوان البريد هذا. حاول مرة أخرى بعد نحو {minutes} دقيقة.',
  unavailable: 'لا يمكن استخدام هذا الرابط الآن. حاول لاحقًا، أو تواصل مع {sender}.',
};

/** The direct link page's words in every language Signet speaks. */
export const DIRECT_LINK_WORDS: Record<Language, DirectLinkWords> = {
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
